import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { SubscriberStatus } from "@mailroom/core"
import { Duration, Effect, Layer, Schedule } from "effect"
import { statusCounter } from "./subscriberColumns.js"

/** How often recorded count changes are added to their lists' rows (Postgres). */
const FOLD_EVERY = Duration.seconds(1)

const STATUSES: ReadonlyArray<SubscriberStatus> = ["subscribed", "unconfirmed", "unsubscribed"]

/**
 * The SQL expression counting a list's subscribers of one status (or of all): its `email_lists` counter plus the
 * changes recorded and not folded yet. `list` is the alias of the `email_lists` row.
 */
export const listCountExpression = (list: string, status?: SubscriberStatus): string => {
  const statuses = status === undefined ? STATUSES : [status]
  const counters = statuses.map((s) => `${list}.${statusCounter[s]}`).join(" + ")
  const changes = statuses.map((s) => `c.${s}`).join(" + ")
  return `CAST(${counters} + (SELECT COALESCE(SUM(${changes}), 0) FROM email_list_count_changes c WHERE c.email_list_id = ${list}.id) AS INTEGER)`
}

/**
 * Moves one subscriber of a list from one status to another (null: none, for an insert or a delete). Postgres records
 * the change in `email_list_count_changes`: updating the list's row would hold it until the commit, and every writer
 * of the list would queue behind it. SQLite has one writer at a time, so nobody waits for the row: it is updated.
 */
export const shiftListCount = (
  sql: SqlClient.SqlClient,
  emailListId: number,
  from: SubscriberStatus | null,
  to: SubscriberStatus | null
): Effect.Effect<void, SqlError> => {
  if (from === to) return Effect.void
  const delta = new Map<SubscriberStatus, number>()
  if (from !== null) delta.set(from, -1)
  if (to !== null) delta.set(to, 1)
  return sql.onDialectOrElse({
    pg: () => sql`INSERT INTO email_list_count_changes ${sql.insert({ emailListId, ...Object.fromEntries(delta) })}`,
    orElse: () =>
      sql`UPDATE email_lists SET ${
        sql.literal([...delta].map(([status, by]) => `${statusCounter[status]} = ${statusCounter[status]} + ${by}`).join(", "))
      } WHERE id = ${emailListId}`
  })
}

/**
 * Adds the recorded changes to their lists' rows in one statement (what it deletes is what it adds, so a change
 * committed meanwhile waits for the next fold, and two folds never add one change twice).
 */
export const foldListCounts = (sql: SqlClient.SqlClient): Effect.Effect<void, SqlError> =>
  sql`WITH moved AS (DELETE FROM email_list_count_changes RETURNING email_list_id, subscribed, unconfirmed, unsubscribed),
        sums AS (SELECT email_list_id, SUM(subscribed) AS subscribed, SUM(unconfirmed) AS unconfirmed,
                        SUM(unsubscribed) AS unsubscribed FROM moved GROUP BY email_list_id)
      UPDATE email_lists SET active_subscribers_count = active_subscribers_count + sums.subscribed,
        unconfirmed_count = unconfirmed_count + sums.unconfirmed, unsubscribed_count = unsubscribed_count + sums.unsubscribed
      FROM sums WHERE email_lists.id = sums.email_list_id`

/**
 * On Postgres, folds the recorded count changes into the lists' rows every second, so that reading a count adds up
 * a second's changes at most. A failed fold (the database away) is tried again at the next; counts read meanwhile
 * stay exact.
 */
export const ListCountFolder: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    if (!pg) return
    yield* foldListCounts(sql).pipe(Effect.ignore, Effect.repeat(Schedule.spaced(FOLD_EVERY)), Effect.forkScoped)
  })
)
