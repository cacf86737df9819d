import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { type EmailListId, type SubscriberId, tagEvents, type TagRef } from "@mailroom/core"
import { Effect } from "effect"
import { dataTexts, EVENT_COLUMNS, pgEventValues } from "./events/insertEvents.js"
import { TAG_COUNTS } from "./moveTagCounts.js"
import { noteCountChange } from "./sharedCounters.js"

/** Tags sorted by id, each once. */
const byId = (tags: ReadonlyArray<TagRef>) =>
  [...new Map(tags.map((tag) => [tag.id as number, tag])).values()].sort((a, b) => a.id - b.id)

/**
 * Postgres: detaches `remove` and attaches `add` (tag sets without a tag in both) in one statement, with a `tag.removed`
 * or `tag.added` event for each link that changed (core's `tagEvents`, in that order, each kind by tag id) and the tags'
 * count changes: three round trips fewer than a statement for each. The events' candidates go in as values and only
 * those of links the statement changed are written.
 */
export const changeTagsAtOnce = (
  sql: SqlClient.SqlClient,
  id: SubscriberId,
  add: ReadonlyArray<TagRef>,
  remove: ReadonlyArray<TagRef>,
  at: Date
): Effect.Effect<void, SqlError> => {
  const removing = byId(remove)
  const adding = byId(add)
  const subscriber = { id, emailListId: (removing[0] ?? adding[0])?.emailListId ?? (0 as EmailListId) }
  const dataText = dataTexts()
  const candidates = [
    ...tagEvents("tag.removed", subscriber, removing, at).map((event) => [-1, event] as const),
    ...tagEvents("tag.added", subscriber, adding, at).map((event) => [1, event] as const)
  ].map(([moved, event], ord) => sql`(${ord}::int, ${moved}::int, ${pgEventValues(sql, event, dataText)})`)
  if (candidates.length === 0) return Effect.void
  const columns = sql.literal(EVENT_COLUMNS.join(", "))
  const removed = removing.length === 0
    ? sql`SELECT NULL::int AS tag_id WHERE false`
    : sql`DELETE FROM subscriber_tags WHERE subscriber_id = ${id} AND tag_id IN ${sql.in(removing.map((tag) => tag.id))} RETURNING tag_id`
  const added = adding.length === 0
    ? sql`SELECT NULL::int AS tag_id WHERE false`
    : sql`INSERT INTO subscriber_tags ${sql.insert(adding.map((tag) => ({ subscriberId: id, tagId: tag.id })))} ON CONFLICT DO NOTHING RETURNING tag_id`
  return sql<{ readonly tagId: number }>`WITH removed AS (${removed}), added AS (${added}),
      changed AS (SELECT tag_id, -1 AS moved FROM removed UNION ALL SELECT tag_id, 1 FROM added),
      candidates (ord, moved, ${columns}) AS (VALUES ${sql.csv(candidates)}),
      evented AS (INSERT INTO events (${columns})
        SELECT ${sql.literal(EVENT_COLUMNS.map((column) => `d.${column}`).join(", "))}
        FROM candidates d JOIN changed c ON c.tag_id = d.ref_id AND c.moved = d.moved ORDER BY d.ord),
      counted AS (INSERT INTO ${sql(TAG_COUNTS.changes)} (${sql(TAG_COUNTS.key)}, subscribers) SELECT tag_id, moved FROM changed)
    SELECT tag_id FROM changed`.pipe(Effect.tap((changed) => {
    if (changed.length > 0) noteCountChange(sql)
  }), Effect.asVoid)
}
