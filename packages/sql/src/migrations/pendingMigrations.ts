import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { migrations } from "./migrate.js"

/**
 * How many of this build's migrations the database has not applied (read from the migrator's table each time: the
 * readiness check). A database migrated by a newer build counts as up to date.
 */
export const pendingMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const known = yield* migrations
  const [row] = yield* sql<{ readonly latest: number | string | null }>`SELECT max(migration_id) AS latest FROM effect_sql_migrations`
  const latest = Number(row?.latest ?? 0)
  return known.filter(([id]) => id > latest).length
})
