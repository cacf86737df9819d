import { Schema } from "effect"
import { CampaignId, SendId, SendUuid, SubscriberId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

const OptionalTime = Schema.NullOr(Timestamp)

/** One mail of a campaign to one subscriber: frozen when the campaign is sent, then mailed once. */
export class Send extends Schema.Class<Send>("Send")({
  id: SendId,
  uuid: SendUuid,
  campaignId: Schema.NullOr(CampaignId),
  subscriberId: Schema.NullOr(SubscriberId),
  /** The address when the send was created (kept when the subscriber is deleted). */
  email: Schema.String,
  transportMessageId: Schema.NullOr(Schema.String),
  sentAt: OptionalTime,
  failedAt: OptionalTime,
  failureReason: Schema.NullOr(Schema.String),
  attempts: Schema.Int,
  openCount: Schema.Int,
  clickCount: Schema.Int,
  firstOpenedAt: OptionalTime,
  lastOpenedAt: OptionalTime,
  firstClickedAt: OptionalTime,
  lastClickedAt: OptionalTime,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** A send claimed for delivery, with what rendering needs of its subscriber (null when the subscriber is gone). */
export interface ClaimedSend {
  readonly id: SendId
  readonly uuid: SendUuid
  readonly email: string
  readonly attempts: number
  readonly subscriber: {
    readonly id: SubscriberId
    readonly uuid: string
    readonly email: string
    readonly firstName: string | null
    readonly lastName: string | null
    readonly extraAttributes: Readonly<Record<string, unknown>>
    readonly subscribed: boolean
  } | null
}
