import type { SubscriberStatus } from "../domain/SubscriberStatus.js"
import type { EventType } from "./EventType.js"
import { type NewEvent, newEvent } from "./NewEvent.js"

/** The event a status change records, if any: confirmed, unsubscribed, resubscribed (other moves record none). */
export const statusEventType = (from: SubscriberStatus, to: SubscriberStatus): EventType | null => {
  if (from === to) return null
  if (to === "unsubscribed") return "subscriber.unsubscribed"
  if (to === "subscribed") return from === "unconfirmed" ? "subscriber.confirmed" : "subscriber.resubscribed"
  return null
}

/** A subscriber as the events of its changes need it. */
export interface SubscriberRef {
  readonly id: number
  readonly emailListId: number
}

/** The event of a status change of this subscriber, as a list (empty when the change records none). */
export const statusEvents = (subscriber: SubscriberRef, from: SubscriberStatus, to: SubscriberStatus, at: Date): Array<NewEvent> => {
  const type = statusEventType(from, to)
  return type === null ? [] : [newEvent(type, at, { emailListId: subscriber.emailListId, subscriberId: subscriber.id })]
}

/** The data of a `subscriber.created` event per status: one frozen object each, shared by every such event. */
const createdData: Record<SubscriberStatus, Readonly<Record<string, unknown>>> = {
  unconfirmed: Object.freeze({ status: "unconfirmed" }),
  subscribed: Object.freeze({ status: "subscribed" }),
  unsubscribed: Object.freeze({ status: "unsubscribed" })
}

/** The event of a new subscriber (its status at creation is in `data`). */
export const createdEvent = (subscriber: SubscriberRef, status: SubscriberStatus, at: Date): NewEvent =>
  newEvent("subscriber.created", at, { emailListId: subscriber.emailListId, subscriberId: subscriber.id, data: createdData[status] })

/** The event of a deleted subscriber, carrying what the API showed of it (it cannot be looked up any more). */
export const deletedEvent = (
  subscriber: SubscriberRef & { readonly uuid: string; readonly email: string; readonly firstName: string | null; readonly lastName: string | null },
  status: SubscriberStatus,
  at: Date
): NewEvent =>
  newEvent("subscriber.deleted", at, {
    emailListId: subscriber.emailListId,
    subscriberId: subscriber.id,
    data: { uuid: subscriber.uuid, email: subscriber.email, first_name: subscriber.firstName, last_name: subscriber.lastName, status }
  })

/** The events of tags attached to (`tag.added`) or detached from (`tag.removed`) a subscriber. */
export const tagEvents = (
  type: "tag.added" | "tag.removed",
  subscriber: SubscriberRef,
  tags: ReadonlyArray<{ readonly id: number; readonly name: string }>,
  at: Date
): Array<NewEvent> =>
  tags.map((tag) =>
    newEvent(type, at, { emailListId: subscriber.emailListId, subscriberId: subscriber.id, refId: tag.id, data: { tag: tag.name } })
  )
