import { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { postgresClient, PostgresStorage, type PostgresStorageOptions } from "./PostgresStorage.js"
import { withStartupOption } from "./withStartupOption.js"

/** Runs `use` on a client of one connection to `url` (statements unprepared, so one text may hold several), closed after. */
export const withOneConnection = <A>(url: string, use: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.scoped(
    Effect.flatMap(Layer.build(postgresClient({ url, maxConnections: 1, preparedStatements: false })), (context) =>
      Effect.orDie(Effect.flatMap(Effect.provide(SqlClient.SqlClient, context), use)))
  )

/** A new schema name: `prefix` and 16 random hex digits. */
export const randomSchemaName = (prefix = "mailroom_test"): string =>
  `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`

/** The URL with a `search_path` startup option, so every connection works inside `schema`. */
export const withSearchPath = (url: string, schema: string): string => withStartupOption(url, `-c search_path=${schema}`)

/**
 * A Postgres store in a new, empty schema that is dropped when the layer is released: isolated tests against one
 * real database (the schema name is random). `store` builds it (default PostgresStorage).
 */
export const PostgresIsolatedStorage = (
  url: string,
  store: (options: PostgresStorageOptions) => Layer.Layer<Storage | SqlClient.SqlClient> = PostgresStorage
): Layer.Layer<Storage | SqlClient.SqlClient> =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const schema = randomSchemaName()
      yield* Effect.acquireRelease(
        withOneConnection(url, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)),
        () => withOneConnection(url, (sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`))
      )
      return store({ url: withSearchPath(url, schema), maxConnections: 4 })
    })
  )
