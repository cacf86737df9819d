import { type NewEvent, type SubscriberId, tagEvents, type TagRef } from "@mailroom/core"

/**
 * A subscriber's `tag.removed` and `tag.added` events for the links that changed (`removed`, `added`: tag ids, as the
 * statements' `RETURNING tag_id` gave them), each kind in tag id order, named from `tags`.
 */
export const tagChangeEvents = (
  subscriberId: SubscriberId | number,
  tags: ReadonlyArray<TagRef>,
  removed: ReadonlyArray<number>,
  added: ReadonlyArray<number>,
  at: Date
): Array<NewEvent> => {
  if (removed.length + added.length === 0) return []
  const subscriber = { id: subscriberId, emailListId: tags[0]?.emailListId ?? 0 }
  // each id once: they are the RETURNING tag_id of one subscriber's links
  const byId = new Map(tags.map((tag) => [tag.id as number, tag]))
  const named = (ids: ReadonlyArray<number>) =>
    [...ids].sort((a, b) => a - b).flatMap((id) => {
      const tag = byId.get(id)
      return tag === undefined ? [] : [{ id: tag.id, name: tag.name }]
    })
  return [...tagEvents("tag.removed", subscriber, named(removed), at), ...tagEvents("tag.added", subscriber, named(added), at)]
}

/** How the tags' subscriber counts move when these links are removed and added: tag id → by how much. */
export const linkCountDelta = (removed: ReadonlyArray<number>, added: ReadonlyArray<number>): Map<number, number> => {
  const delta = new Map<number, number>()
  for (const [tagIds, by] of [[removed, -1], [added, 1]] as const) {
    for (const tagId of tagIds) delta.set(tagId, (delta.get(tagId) ?? 0) + by)
  }
  return delta
}
