import type { SqlClient } from "@effect/sql"

/**
 * The ORDER BY terms of tag names (`alias` the tags table's alias or name): their key, then the name, by code point on
 * every store (SQLite's BINARY; Postgres' "C", whatever the database's collation), as `compareTagNames` orders them.
 */
export const tagNameOrder = (sql: SqlClient.SqlClient, alias: string): string =>
  sql.onDialectOrElse({
    pg: () => `${alias}.name_key COLLATE "C", ${alias}.name COLLATE "C"`,
    orElse: () => `${alias}.name_key, ${alias}.name`
  })
