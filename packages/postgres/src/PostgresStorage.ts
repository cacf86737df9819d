import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Storage } from "@mailroom/core"
import { columnName, fieldName, sqlStorage } from "@mailroom/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer } from "effect"
import Pg from "pg"
import { PgImportBatchRepository } from "./imports/PgImportBatchRepository.js"
import { PreparingClient } from "./PreparingClient.js"
import { withStartupOption } from "./withStartupOption.js"

/** Options of the Postgres store. */
export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string
  /** Pool size (default 10). */
  readonly maxConnections?: number
  /**
   * Whether parameterized statements run as named prepared statements (default true). Turn off behind a pooler that
   * moves sessions between transactions without keeping them (PgBouncer in transaction mode before 1.21, or without
   * `max_prepared_statements`).
   */
  readonly preparedStatements?: boolean
}

/** How long the first connection may take. */
const CONNECT_TIMEOUT = Duration.seconds(5)

/** A pooled SqlClient on Postgres (snake_case columns mapped to camelCase fields), its statements prepared by default. */
export const postgresClient = (options: PostgresStorageOptions): Layer.Layer<SqlClient.SqlClient> =>
  PgClient.layerFromPool({
    acquire: Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const prepared = options.preparedStatements !== false
          const pool = new Pg.Pool({
            // a prepared statement is planned with each call's values, as an unnamed one was: Postgres' generic plan of
            // the delivery's claims was much slower (612 against 978 mails/s in the send benchmark)
            connectionString: prepared ? withStartupOption(options.url, "-c plan_cache_mode=force_custom_plan") : options.url,
            max: options.maxConnections ?? 10,
            application_name: "mailroom",
            ...(prepared ? { Client: PreparingClient } : {})
          })
          // an idle connection's error (a restarted server) only drops it from the pool
          pool.on("error", () => {})
          try {
            await pool.query("SELECT 1")
          } catch (cause) {
            await pool.end()
            throw cause
          }
          return pool
        },
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(Effect.timeoutFail({
        duration: CONNECT_TIMEOUT,
        onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
      })),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ),
    transformQueryNames: columnName,
    transformResultNames: fieldName
  }).pipe(Layer.orDie)

/** Every storage port on Postgres, migrated at build (import batches written through COPY). */
export const PostgresStorage = (options: PostgresStorageOptions): Layer.Layer<Storage | SqlClient.SqlClient> =>
  sqlStorage(PgImportBatchRepository).pipe(Layer.provideMerge(postgresClient(options)))
