import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import type { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import type { Storage } from "@mailroom/core"
import { SqlStorage } from "@mailroom/sql"
import { Effect, Layer, String } from "effect"

/** Options of the SQLite store. */
export interface SqliteStorageOptions {
  /** Database file (its folder is created), or `:memory:`. */
  readonly filename: string
}

/** A SqlClient on a SQLite file (WAL mode, snake_case columns mapped to camelCase fields). */
export const sqliteClient = (options: SqliteStorageOptions): Layer.Layer<SqlClient.SqlClient> =>
  Layer.unwrapEffect(
    Effect.sync(() => {
      if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true })
      return SqliteClient.layer({
        filename: options.filename,
        transformQueryNames: String.camelToSnake,
        transformResultNames: String.snakeToCamel
      })
    })
  ).pipe(Layer.orDie)

/** Every storage port on SQLite, migrated at build. */
export const SqliteStorage = (options: SqliteStorageOptions): Layer.Layer<Storage | SqlClient.SqlClient> =>
  SqlStorage.pipe(Layer.provideMerge(sqliteClient(options)))
