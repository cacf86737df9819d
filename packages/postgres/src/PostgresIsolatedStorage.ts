import { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { postgresClient, PostgresStorage, type PostgresStorageOptions } from "./PostgresStorage.js"
import { withStartupOption } from "./withStartupOption.js"

const runOnce = (url: string, statement: string) =>
  Effect.scoped(
    Effect.flatMap(Layer.build(postgresClient({ url, maxConnections: 1 })), (context) =>
      Effect.orDie(SqlClient.SqlClient.pipe(Effect.provide(context), Effect.flatMap((sql) => sql.unsafe(statement)))))
  )

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
      const schema = `mailroom_test_${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`
      yield* Effect.acquireRelease(
        runOnce(url, `CREATE SCHEMA ${schema}`),
        () => runOnce(url, `DROP SCHEMA ${schema} CASCADE`)
      )
      return store({ url: withSearchPath(url, schema), maxConnections: 4 })
    })
  )
