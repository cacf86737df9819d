import { SqlClient, SqlError } from "@effect/sql"
import { Transactor } from "@mailroom/core"
import { Effect, Layer, Option } from "effect"

/** Times an outermost transaction is run again after the database aborted it to break a deadlock. */
const RETRIES = 3

/** Postgres' codes for a transaction aborted to break a deadlock (40P01) or a serialization conflict (40001). */
const ABORTED = new Set(["40P01", "40001"])

/** Whether a defect is a statement the database refused only because of other transactions: running again can work. */
const isRetryableAbort = (defect: unknown): boolean =>
  defect instanceof SqlError.SqlError && ABORTED.has(String((defect.cause as { readonly code?: unknown } | null)?.code))

/**
 * Runs `self` in a database transaction (a savepoint when nested; SQL errors become defects). An outermost one that the
 * database aborted to break a deadlock is run again, up to RETRIES times, instead of failing: writers take shared rows
 * in one order, so this is the rare case that order cannot cover.
 */
export const retriedTransaction = (sql: SqlClient.SqlClient) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const once = Effect.catchAll(sql.withTransaction(self), (error) =>
    error instanceof SqlError.SqlError ? Effect.die(error) : Effect.fail(error as E))
  const attempt = (left: number): typeof once =>
    Effect.catchAllDefect(once, (defect) => (left > 0 && isRetryableAbort(defect) ? attempt(left - 1) : Effect.die(defect)))
  return Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) => (Option.isSome(outer) ? once : attempt(RETRIES)))
}

/** Transactor over SqlClient: retriedTransaction; an atomic write runs as it is (it commits by itself outside one). */
export const SqlTransactor = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) => Transactor.of({ withTransaction: retriedTransaction(sql), withAtomicWrite: (self) => self }))
)
