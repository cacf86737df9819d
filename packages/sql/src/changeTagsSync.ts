import type { SqlError } from "@effect/sql/SqlError"
import type { SubscriberId, TagRef } from "@mailroom/core"
import type { Effect } from "effect"
import { runEventInserts } from "./events/insertEvents.js"
import { TAG_COUNTS, tagCountChanges } from "./moveTagCounts.js"
import { counterStatements } from "./sharedCounters.js"
import type { SyncStatements, SyncWriter } from "./SyncWriter.js"
import { linkCountDelta, tagChangeEvents } from "./tagChanges.js"
import { insertText, questionMarks } from "./valuesInsert.js"

/** The tag ids of `RETURNING tag_id` rows. */
const tagIdsOf = (rows: ReadonlyArray<Record<string, unknown>>) => rows.map((row) => Number(Object.values(row)[0]))

/**
 * SQLite: detaches `remove` and attaches `add` in one synchronous call on the writing connection (`SyncWriter`), with
 * the same statements, events and count updates as the repository's general path, in the same order: the links
 * removed, the links added, a `tag.removed` / `tag.added` event for each link that changed, the tags' counts.
 */
export const changeTagsSync = (
  writer: SyncWriter["Type"],
  id: SubscriberId,
  add: ReadonlyArray<TagRef>,
  remove: ReadonlyArray<TagRef>,
  at: Date
): Effect.Effect<void, SqlError> => {
  const removing = [...new Set(remove.map((tag) => tag.id as number))]
  const adding = [...new Set(add.map((tag) => tag.id as number))]
  return writer.write((statements: SyncStatements) => {
    const removed = removing.length === 0 ? [] : tagIdsOf(statements.all(
      `DELETE FROM subscriber_tags WHERE subscriber_id = ? AND tag_id IN (${questionMarks(removing.length)}) RETURNING tag_id`,
      [id, ...removing]
    ))
    const added = adding.length === 0 ? [] : tagIdsOf(statements.all(
      insertText(false, "subscriber_tags", ["subscriber_id", "tag_id"], adding.length, "tag_id", "ON CONFLICT DO NOTHING"),
      adding.flatMap((tagId) => [id, tagId])
    ))
    runEventInserts(statements, tagChangeEvents(id, [...remove, ...add], removed, added, at))
    for (const [text, ids] of counterStatements(TAG_COUNTS, tagCountChanges(linkCountDelta(removed, added)))) statements.run(text, ids)
  })
}
