import { SqlClient } from "@effect/sql"
import type { Readiness } from "@mailroom/http"
import { pendingMigrations } from "@mailroom/sql"
import { Cause, Duration, Effect, Option } from "effect"
import type { RunningWorkers } from "./RunningWorkers.js"

/** How long the database may take to answer the readiness query. */
const DATABASE_TIMEOUT = Duration.seconds(2)

const reason = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause)
  const message = error instanceof Error ? error.message : String(error)
  return `unreachable: ${message.split("\n")[0]!.slice(0, 200)}`
}

/**
 * The readiness checks: `database` (a `SELECT 1` answers within 2 s), `migrations` (every migration of this build is
 * applied: they run before the port opens, and this reads the database each time) and `workers` (the background
 * workers still run; `off` with WORKERS=false, which is no failure). A store without SQL (memory) has nothing to check.
 */
export const readiness = (
  sql: Option.Option<SqlClient.SqlClient>,
  workers: Option.Option<RunningWorkers["Type"]>
): Effect.Effect<Readiness> =>
  Effect.gen(function*() {
    const checks: Record<string, string> = {}
    if (Option.isSome(sql)) {
      const client = sql.value
      const database = yield* client`SELECT 1 AS one`.pipe(
        Effect.timeoutFail({ duration: DATABASE_TIMEOUT, onTimeout: () => new Error(`no answer within ${Duration.format(DATABASE_TIMEOUT)}`) }),
        Effect.as("ok"),
        Effect.catchAllCause((cause) => Effect.succeed(reason(cause)))
      )
      checks["database"] = database
      checks["migrations"] = database !== "ok" ? "unknown" : yield* pendingMigrations.pipe(
        Effect.provideService(SqlClient.SqlClient, client),
        Effect.map((pending) => (pending === 0 ? "ok" : `${pending} pending`)),
        Effect.catchAllCause((cause) => Effect.succeed(reason(cause)))
      )
    }
    checks["workers"] = Option.isNone(workers) ? "off" : (yield* workers.value.running) ? "ok" : "stopped"
    const ready = Object.entries(checks).every(([name, state]) => state === "ok" || (name === "workers" && state === "off"))
    return { ready, checks }
  })
