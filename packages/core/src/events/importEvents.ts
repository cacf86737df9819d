import type { SubscriberStatus } from "../domain/SubscriberStatus.js"
import { type NewEvent, newEvent } from "./NewEvent.js"
import { createdEvent, statusEvents } from "./subscriberEvents.js"

/** A link between a subscriber and a tag. */
export interface TagLink {
  readonly subscriberId: number
  readonly tagId: number
}

/** The events of an import batch's subscribers: created ones, and status changes of updated ones. */
export const importSubscriberEvents = (
  emailListId: number,
  inserted: ReadonlyArray<{ readonly id: number; readonly status: SubscriberStatus }>,
  updated: ReadonlyArray<{ readonly id: number; readonly from: SubscriberStatus; readonly to: SubscriberStatus }>,
  at: Date
): Array<NewEvent> => {
  const events: Array<NewEvent> = []
  for (const { id, status } of inserted) events.push(createdEvent({ id, emailListId }, status, at))
  for (const { from, id, to } of updated) events.push(...statusEvents({ id, emailListId }, from, to, at))
  return events
}

/**
 * The tag events of links a batch removed and added: only net changes (a tag replaced by itself records nothing),
 * `tag.removed` before `tag.added`.
 */
export const importTagEvents = (
  emailListId: number,
  removed: ReadonlyArray<TagLink>,
  added: ReadonlyArray<TagLink>,
  names: ReadonlyMap<number, string>,
  at: Date
): Array<NewEvent> => {
  const key = (link: TagLink) => `${link.subscriberId}:${link.tagId}`
  // the events of one tag share one frozen data object (a batch has thousands of events and a handful of tags)
  const dataOf = new Map<number, Readonly<Record<string, unknown>>>()
  const data = (tagId: number) => {
    let found = dataOf.get(tagId)
    if (found === undefined) dataOf.set(tagId, found = Object.freeze({ tag: names.get(tagId) ?? null }))
    return found
  }
  const event = (type: "tag.added" | "tag.removed") => (link: TagLink) =>
    newEvent(type, at, { emailListId, subscriberId: link.subscriberId, refId: link.tagId, data: data(link.tagId) })
  // a link both removed and added (a tag replaced by itself) is no change; with only one side (new subscribers only
  // add) there is nothing to compare, and no key is built
  const both = removed.length > 0 && added.length > 0
  const addedKeys = new Set(both ? added.map(key) : [])
  const removedKeys = new Set(both ? removed.map(key) : [])
  return [
    ...(both ? removed.filter((link) => !addedKeys.has(key(link))) : removed).map(event("tag.removed")),
    ...(both ? added.filter((link) => !removedKeys.has(key(link))) : added).map(event("tag.added"))
  ]
}

/** The event of subscribers unsubscribed in bulk (an import's `unsubscribe_others`). */
export const unsubscribedEvents = (emailListId: number, subscriberIds: ReadonlyArray<number>, at: Date): Array<NewEvent> =>
  subscriberIds.map((id) => newEvent("subscriber.unsubscribed", at, { emailListId, subscriberId: id }))

/** The event an import's status change records: `import.completed` when it finishes. */
export const importStatusEvents = (
  subscriberImport: { readonly id: number; readonly emailListId: number },
  to: string,
  at: Date
): Array<NewEvent> =>
  to === "completed" ? [newEvent("import.completed", at, { emailListId: subscriberImport.emailListId, refId: subscriberImport.id })] : []
