/** The portable import path (multi-row INSERT … RETURNING) that an embedder gets from `SqlStorage` on Postgres. */
import { SqlClient } from "@effect/sql"
import { ImportBatchSuite } from "@mailroom/core/storage-suite"
import { postgresClient, withSearchPath } from "@mailroom/postgres"
import { SqlStorage } from "@mailroom/sql"
import { Effect, Layer } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

/** Runs one statement on a connection of its own. */
const runOnce = (statement: string) =>
  Effect.scoped(Effect.flatMap(Layer.build(postgresClient({ url, maxConnections: 1 })), (context) =>
    Effect.orDie(Effect.flatMap(Effect.provide(SqlClient.SqlClient, context), (sql) => sql.unsafe(statement)))))

ImportBatchSuite("postgres, portable SQL", () =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const schema = `mailroom_portable_${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`
    yield* Effect.acquireRelease(runOnce(`CREATE SCHEMA ${schema}`), () => runOnce(`DROP SCHEMA ${schema} CASCADE`))
    return SqlStorage.pipe(Layer.provideMerge(postgresClient({ url: withSearchPath(url, schema), maxConnections: 4 })))
  })))
