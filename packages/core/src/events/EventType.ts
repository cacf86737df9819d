import { Schema } from "effect"

/** Every kind of domain event, as webhooks and library consumers name them. */
export const EventTypes = [
  "subscriber.created",
  "subscriber.confirmed",
  "subscriber.unsubscribed",
  "subscriber.resubscribed",
  "subscriber.deleted",
  "tag.added",
  "tag.removed",
  "campaign.sending",
  "campaign.sent",
  "mail.sent",
  "mail.failed",
  "mail.opened",
  "mail.clicked",
  "mail.bounced",
  "mail.complained",
  "import.completed",
  "transactional_mail.sent"
] as const

/** The name of a kind of domain event. */
export const EventType = Schema.Literal(...EventTypes)
/** @since 0.2.0 */
export type EventType = typeof EventType.Type

/** Whether a string names a kind of event. */
export const isEventType = (value: string): value is EventType => (EventTypes as ReadonlyArray<string>).includes(value)
