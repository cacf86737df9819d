import { Schema } from "effect"
import { EmailListId, SubscriberId, SubscriberUuid } from "./Ids.js"
import { JsonValue } from "./JsonValue.js"
import { Timestamp } from "./Timestamp.js"

/** Free-form attributes of a subscriber (merge fields such as `company`). */
export const ExtraAttributes = Schema.Record({ key: Schema.String, value: JsonValue })
/** @since 0.1.0 */
export type ExtraAttributes = typeof ExtraAttributes.Type

/** A person on one list. Their status follows from `subscribedAt` and `unsubscribedAt` (see `subscriberStatus`). */
export class Subscriber extends Schema.Class<Subscriber>("Subscriber")({
  id: SubscriberId,
  uuid: SubscriberUuid,
  emailListId: EmailListId,
  email: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  extraAttributes: ExtraAttributes,
  /** Names of every tag the subscriber carries (user and system), sorted. */
  tags: Schema.Array(Schema.String),
  subscribedAt: Schema.NullOr(Timestamp),
  unsubscribedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}
