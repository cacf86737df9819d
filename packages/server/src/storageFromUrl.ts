import type { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** True when DATABASE_URL names a store Mailroom knows. */
export const isSupportedDatabaseUrl = (databaseUrl: string): boolean =>
  databaseUrl.startsWith("sqlite:") || /^postgres(ql)?:\/\//.test(databaseUrl)

/**
 * The store named by DATABASE_URL: `sqlite:PATH`, `sqlite::memory:` or `postgres://…` (also `postgresql://`).
 * Each adapter is imported when it is chosen, so a SQLite server never loads the Postgres driver (nor the reverse).
 */
export const storageFromUrl = (databaseUrl: string, options: { readonly preparedStatements?: boolean } = {}): Layer.Layer<Storage | SqlClient.SqlClient> =>
  databaseUrl.startsWith("sqlite:")
    ? Layer.unwrapEffect(Effect.promise(() => import("@mailroom/sqlite")).pipe(
      Effect.map(({ SqliteStorage }) => SqliteStorage({ filename: databaseUrl.slice("sqlite:".length) || ":memory:" }))
    ))
    : Layer.unwrapEffect(Effect.promise(() => import("@mailroom/postgres")).pipe(
      Effect.map(({ PostgresStorage }) => PostgresStorage({ url: databaseUrl, preparedStatements: options.preparedStatements ?? true }))
    ))
