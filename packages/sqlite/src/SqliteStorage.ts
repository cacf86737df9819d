import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import { columnName, fieldName, SqlStorage, type SyncWriter } from "@mailroom/sql"
import { Effect, Layer } from "effect"
import { sqliteReadWriteClient } from "./SqliteReadWriteClient.js"
import { walCheckpointer } from "./walCheckpointer.js"

/** Options of the SQLite store. */
export interface SqliteStorageOptions {
  /** Database file (its folder is created), or `:memory:`. */
  readonly filename: string
}

/** A SqlClient on a SQLite file and its SyncWriter (WAL mode, reads outside transactions on their own connection, snake_case columns mapped to camelCase fields). */
export const sqliteClient = (options: SqliteStorageOptions): Layer.Layer<SqlClient.SqlClient | SyncWriter> =>
  Layer.unwrapEffect(
    Effect.sync(() => {
      if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true })
      return sqliteReadWriteClient({
        filename: options.filename,
        transformQueryNames: columnName,
        transformResultNames: fieldName
      })
    })
  ).pipe(Layer.orDie)

/**
 * Connection settings: `synchronous = NORMAL` (in WAL mode a crash of the process or the OS loses nothing committed,
 * only a power cut may lose the last transactions), a 32 MB page cache (the default 2 MB thrashes on the random
 * uuid and email indexes of a large import), temporary tables in memory, and a busy timeout for other processes
 * (a `mailroom worker` or a backup) writing the same file.
 */
const tuned = (filename: string) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      if (filename !== ":memory:") yield* sql.unsafe("PRAGMA synchronous = NORMAL")
      yield* sql.unsafe(`PRAGMA cache_size = ${-32 * 1024}`)
      yield* sql.unsafe("PRAGMA temp_store = MEMORY")
      yield* sql.unsafe("PRAGMA busy_timeout = 5000")
    }).pipe(Effect.orDie)
  )

/** Every storage port on SQLite, migrated at build. */
export const SqliteStorage = (options: SqliteStorageOptions): Layer.Layer<Storage | SqlClient.SqlClient> => {
  const storage = SqlStorage.pipe(Layer.provide(tuned(options.filename)), Layer.provideMerge(sqliteClient(options)))
  // built after the migrations, so that they never start the checkpoint worker
  return options.filename === ":memory:" ? storage : walCheckpointer(options.filename).pipe(Layer.provideMerge(storage))
}
