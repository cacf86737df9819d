import { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import {
  PostgresStorage,
  type PostgresStorageOptions,
  randomSchemaName,
  withOneConnection,
  withSearchPath
} from "@mailroom/postgres"
import { Effect, Layer } from "effect"

/** The tables of `schema` but the migrations' own, each after every table whose foreign keys point at it. */
const tablesChildrenFirst = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.gen(function*() {
    const tables = (yield* sql<{ readonly tablename: string }>`
      SELECT tablename FROM pg_tables WHERE schemaname = ${schema} AND tablename <> 'effect_sql_migrations'`)
      .map((row) => row.tablename)
    const keys = yield* sql<{ readonly child: string; readonly parent: string }>`
      SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = k.connamespace
      WHERE k.contype = 'f' AND n.nspname = ${schema} AND k.conrelid <> k.confrelid`
    const ordered: Array<string> = []
    const placed = new Set<string>()
    const place = (table: string): void => {
      if (placed.has(table)) return
      placed.add(table)
      for (const key of keys) if (key.parent === table) place(key.child)
      ordered.push(table)
    }
    tables.forEach(place)
    return ordered
  })

/**
 * Fresh, empty Postgres stores for one test file, in one schema migrated once: before each store is built, every row is
 * deleted (children first) and every sequence restarted, which leaves what migrating a new schema leaves (the
 * migrations insert no rows) at a fraction of its cost. `store` builds it (default PostgresStorage); `drop` removes the
 * schema (in `afterAll`).
 */
export const sharedSchemaStorage = (
  url: string,
  store: (options: PostgresStorageOptions) => Layer.Layer<Storage | SqlClient.SqlClient> = PostgresStorage
) => {
  const schema = randomSchemaName()
  const inSchema = withSearchPath(url, schema)
  let emptying: Promise<string> | undefined
  /** Creates and migrates the schema once; the statements that empty it. */
  const prepare = () =>
    emptying ??= Effect.runPromise(Effect.gen(function*() {
      yield* withOneConnection(url, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`))
      yield* Effect.scoped(Layer.build(store({ url: inSchema, maxConnections: 1 })))
      return yield* withOneConnection(inSchema, (sql) =>
        Effect.gen(function*() {
          const tables = yield* tablesChildrenFirst(sql, schema)
          const sequences = yield* sql<{ readonly sequencename: string }>`
            SELECT sequencename FROM pg_sequences WHERE schemaname = ${schema}`
          return [
            ...tables.map((table) => `DELETE FROM "${table}"`),
            ...sequences.map((row) => `ALTER SEQUENCE "${row.sequencename}" RESTART`)
          ].join("; ")
        }))
    }))
  const storage = (): Layer.Layer<Storage | SqlClient.SqlClient> =>
    Layer.unwrapEffect(
      Effect.promise(prepare).pipe(
        Effect.flatMap((statements) => withOneConnection(inSchema, (sql) => sql.unsafe(statements))),
        Effect.as(store({ url: inSchema, maxConnections: 4 }))
      )
    )
  const drop = () => Effect.runPromise(withOneConnection(url, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)))
  return { storage, drop }
}
