import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Storage } from "@mailroom/core"
import { columnName, fieldName, sqlStorage } from "@mailroom/sql"
import { Layer, Redacted } from "effect"
import { PgImportBatchRepository } from "./imports/PgImportBatchRepository.js"

/** Options of the Postgres store. */
export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string
  /** Pool size (default 10). */
  readonly maxConnections?: number
}

/** A pooled SqlClient on Postgres (snake_case columns mapped to camelCase fields). */
export const postgresClient = (options: PostgresStorageOptions): Layer.Layer<SqlClient.SqlClient> =>
  PgClient.layer({
    url: Redacted.make(options.url),
    maxConnections: options.maxConnections ?? 10,
    transformQueryNames: columnName,
    transformResultNames: fieldName
  }).pipe(Layer.orDie)

/** Every storage port on Postgres, migrated at build (import batches written through COPY). */
export const PostgresStorage = (options: PostgresStorageOptions): Layer.Layer<Storage | SqlClient.SqlClient> =>
  sqlStorage(PgImportBatchRepository).pipe(Layer.provideMerge(postgresClient(options)))
