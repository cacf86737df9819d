import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Moves tags' subscriber counts (tag id → by how much), one row at a time in id order: every writer takes the tags'
 * shared rows in that order, after the list's, since writers that took them in other orders deadlocked on Postgres.
 */
export const moveTagCounts = (sql: SqlClient.SqlClient, delta: ReadonlyMap<number, number>) =>
  Effect.forEach(
    [...delta].filter(([, by]) => by !== 0).sort(([a], [b]) => a - b),
    ([tagId, by]) => sql`UPDATE tags SET subscriber_count = subscriber_count + ${by} WHERE id = ${tagId}`,
    { discard: true }
  )
