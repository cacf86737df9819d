import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Option, Redacted } from "effect"

/** The reason a Postgres error gives, in the words an operator needs (server codes and socket errors). */
const reasonOf = (error: unknown, url: URL): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause ?? (error as { code?: string; message?: string })
  const at = `${url.hostname || "localhost"}:${url.port || "5432"}`
  const database = decodeURIComponent(url.pathname.slice(1)) || "postgres"
  const user = decodeURIComponent(url.username) || "the default user"
  switch (cause?.code) {
    case "ECONNREFUSED":
      return `connection refused at ${at} (is PostgreSQL running there?)`
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host ${url.hostname} not found`
    case "ETIMEDOUT":
      return `no answer from ${at}`
    case "3D000":
      return `database "${database}" does not exist at ${at} (create it: createdb ${database})`
    case "28P01":
    case "28000":
      return `authentication failed for user ${user} at ${at}`
    default:
      return `cannot connect to ${at} (${cause?.message ?? String(error)})`
  }
}

/**
 * Why a Postgres URL cannot be used now (unreachable, refused, unknown database, bad credentials), in one line, or
 * none when a `SELECT 1` works within `timeout`.
 */
export const postgresConnectionProblem = (url: string, timeout: Duration.DurationInput = Duration.seconds(5)) => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return Effect.succeed(Option.some("is not a valid URL (expected postgres://user:password@host:port/database)"))
  return Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`SELECT 1`
  }).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: timeout })),
    Effect.timeoutFail({ duration: Duration.sum(timeout, Duration.seconds(1)), onTimeout: () => ({ code: "ETIMEDOUT" }) }),
    Effect.match({ onFailure: (error) => Option.some(reasonOf(error, parsed)), onSuccess: () => Option.none<string>() })
  )
}
