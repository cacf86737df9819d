import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { SubscriberStatus } from "@mailroom/core"
import type { Effect } from "effect"
import { countExpression, recordCountChanges, type SharedCounters } from "./sharedCounters.js"
import { statusCounter } from "./subscriberColumns.js"

/** A list's per-status counters (`email_lists`), their changes recorded in `email_list_count_changes` on Postgres. */
export const LIST_COUNTS: SharedCounters = {
  table: "email_lists",
  changes: "email_list_count_changes",
  key: "email_list_id",
  columns: statusCounter
}

const STATUSES: ReadonlyArray<SubscriberStatus> = ["subscribed", "unconfirmed", "unsubscribed"]

/** The SQL expression counting a list's subscribers of one status (or of all); `list` is the `email_lists` alias. */
export const listCountExpression = (list: string, status?: SubscriberStatus): string =>
  countExpression(LIST_COUNTS, list, status === undefined ? STATUSES : [status])

/** Moves one subscriber of a list from one status to another (null: none, for an insert or a delete). */
export const shiftListCount = (
  sql: SqlClient.SqlClient,
  emailListId: number,
  from: SubscriberStatus | null,
  to: SubscriberStatus | null
): Effect.Effect<void, SqlError> => {
  const by = new Map<string, number>()
  if (from !== to && from !== null) by.set(from, -1)
  if (from !== to && to !== null) by.set(to, 1)
  return recordCountChanges(sql, LIST_COUNTS, new Map([[emailListId, by]]))
}
