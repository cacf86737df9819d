import type { SqlClient } from "@effect/sql"
import type { Storage } from "@mailroom/core"
import { PostgresStorage } from "@mailroom/postgres"
import { SqliteStorage } from "@mailroom/sqlite"
import { Layer } from "effect"

/** True when DATABASE_URL names a store Mailroom knows. */
export const isSupportedDatabaseUrl = (databaseUrl: string): boolean =>
  databaseUrl.startsWith("sqlite:") || /^postgres(ql)?:\/\//.test(databaseUrl)

/** The store named by DATABASE_URL: `sqlite:PATH`, `sqlite::memory:` or `postgres://…` (also `postgresql://`). */
export const storageFromUrl = (databaseUrl: string): Layer.Layer<Storage | SqlClient.SqlClient> =>
  databaseUrl.startsWith("sqlite:")
    ? SqliteStorage({ filename: databaseUrl.slice("sqlite:".length) || ":memory:" })
    : PostgresStorage({ url: databaseUrl })
