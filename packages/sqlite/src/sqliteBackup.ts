import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect } from "effect"

/**
 * Copies a live SQLite database to `destination` with SQLite's online backup (pages copied in steps, so writers of the
 * same file keep going and the copy is one consistent state). Returns the number of pages copied.
 */
export const sqliteBackup = (filename: string, destination: string) =>
  Effect.gen(function*() {
    const client = yield* SqliteClient.SqliteClient
    yield* client`PRAGMA busy_timeout = 5000`
    const { totalPages } = yield* client.backup(destination)
    return totalPages
  }).pipe(Effect.provide(SqliteClient.layer({ filename })))
