import { type EmailList, formatTimestamp, JsonValue, type Subscriber } from "@mailroom/core"
import { Schema } from "effect"

const stamp = (date: Date | null) => (date === null ? null : formatTimestamp(date))

/** A subscriber as the API returns it; `extra_attributes` is `[]` when empty. */
export const SubscriberResource = Schema.Struct({
  uuid: Schema.UUID,
  email_list_uuid: Schema.UUID,
  email: Schema.String,
  first_name: Schema.NullOr(Schema.String),
  last_name: Schema.NullOr(Schema.String),
  extra_attributes: Schema.Union(Schema.Record({ key: Schema.String, value: JsonValue }), Schema.Tuple()),
  tags: Schema.Array(Schema.String).annotations({
    description: "The subscriber's tag names, ordered case-insensitively, by code point (the same order on every store)."
  }),
  subscribed_at: Schema.NullOr(Schema.String),
  unsubscribed_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Subscriber" })

/** Renders a subscriber of `list`. */
export const toSubscriberResource = (list: EmailList) => (subscriber: Subscriber): typeof SubscriberResource.Type => ({
  uuid: subscriber.uuid,
  email_list_uuid: list.uuid,
  email: subscriber.email,
  first_name: subscriber.firstName,
  last_name: subscriber.lastName,
  extra_attributes: Object.keys(subscriber.extraAttributes).length === 0 ? [] : subscriber.extraAttributes,
  tags: subscriber.tags,
  subscribed_at: stamp(subscriber.subscribedAt),
  unsubscribed_at: stamp(subscriber.unsubscribedAt),
  created_at: formatTimestamp(subscriber.createdAt),
  updated_at: formatTimestamp(subscriber.updatedAt)
})
