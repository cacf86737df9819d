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
 * Transactor over SqlClient: a database transaction (nested calls become savepoints). An outermost transaction that
 * the database aborted to break a deadlock is run again (up to RETRIES times) instead of failing its request; writers
 * take shared rows in one order, so this is the rare case the order cannot cover.
 */
export const SqlTransactor = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      withTransaction: (self) => {
        const once = sql.withTransaction(self).pipe(
          Effect.catchIf((error): error is SqlError.SqlError => error instanceof SqlError.SqlError, Effect.die)
        )
        const attempt = (left: number): typeof once =>
          Effect.catchAllDefect(once, (defect) => (left > 0 && isRetryableAbort(defect) ? attempt(left - 1) : Effect.die(defect)))
        return Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) => (Option.isSome(outer) ? once : attempt(RETRIES)))
      }
    }))
)
