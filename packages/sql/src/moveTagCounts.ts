import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import { recordCountChanges, type SharedCounters } from "./sharedCounters.js"

/** Tags' subscriber counts (`tags`), their changes recorded in `tag_count_changes` on Postgres. */
export const TAG_COUNTS: SharedCounters = {
  table: "tags",
  changes: "tag_count_changes",
  key: "tag_id",
  columns: { subscribers: "subscriber_count" }
}

/**
 * Moves tags' subscriber counts (tag id → by how much). On SQLite the rows are updated in id order, after the list's:
 * writers that took them in other orders deadlocked on Postgres, before Postgres recorded changes instead.
 */
export const moveTagCounts = (sql: SqlClient.SqlClient, delta: ReadonlyMap<number, number>): Effect.Effect<void, SqlError> =>
  recordCountChanges(sql, TAG_COUNTS, tagCountChanges(delta))

/** TAG_COUNTS' changes for tag id → by how much. */
export const tagCountChanges = (delta: ReadonlyMap<number, number>): Map<number, Map<string, number>> =>
  new Map([...delta].map(([tagId, by]) => [tagId, new Map([["subscribers", by]])]))
