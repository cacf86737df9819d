import type { EventType } from "./EventType.js"
import { type NewEvent, newEvent } from "./NewEvent.js"

/** A send as the events about its mail need it. */
export interface SendRef {
  readonly id: number | null
  readonly campaignId: number | null
  readonly subscriberId: number | null
  readonly transactionalMailId: number | null
}

/** An event about one mail (its send, campaign or transactional mail, subscriber and list). */
export const mailEvent = (
  type: Extract<EventType, `mail.${string}`> | "transactional_mail.sent",
  send: SendRef,
  emailListId: number | null,
  at: Date,
  data: NewEvent["data"] = null
): NewEvent =>
  newEvent(type, at, {
    emailListId,
    subscriberId: send.subscriberId,
    campaignId: send.campaignId,
    sendId: send.id,
    refId: send.transactionalMailId,
    data
  })

/** The events of a mail handed over: `mail.sent`, and `transactional_mail.sent` for a transactional one. */
export const sentEvents = (send: SendRef, emailListId: number | null, at: Date): Array<NewEvent> => [
  mailEvent("mail.sent", send, emailListId, at),
  ...(send.transactionalMailId === null ? [] : [mailEvent("transactional_mail.sent", send, emailListId, at)])
]
