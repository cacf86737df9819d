import { Schema } from "effect"
import { EventType } from "./EventType.js"

/**
 * A recorded domain event: a state change committed to the store, in the order consumers read them. `type` tells the
 * variant; the ids name the records it is about (null where the kind has none).
 */
export class DomainEvent extends Schema.Class<DomainEvent>("DomainEvent")({
  /** The event's position in the outbox (unique, increasing within one transaction). */
  id: Schema.Number,
  type: EventType,
  occurredAt: Schema.DateFromSelf,
  emailListId: Schema.NullOr(Schema.Number),
  subscriberId: Schema.NullOr(Schema.Number),
  campaignId: Schema.NullOr(Schema.Number),
  sendId: Schema.NullOr(Schema.Number),
  refId: Schema.NullOr(Schema.Number),
  data: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}) {
  /** The event's public id, stable across deliveries (webhook-id). */
  get publicId(): string {
    return `evt_${this.id}`
  }
}
