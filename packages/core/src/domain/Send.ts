import { Schema } from "effect"
import { CampaignId, SendId, SendUuid, SubscriberId } from "./Ids.js"
import { TransactionalMailId } from "../transactional/TransactionalIds.js"
import { AutomationMailId } from "../automations/AutomationIds.js"
import { Timestamp } from "./Timestamp.js"

const OptionalTime = Schema.NullOr(Timestamp)

/**
 * One mail: of a campaign to one subscriber (frozen when the campaign is sent, then mailed once), or one delivery of a
 * transactional mail (to its recipients; `subscriberId` is the first To address's subscriber, if any), or of an automation
 * mail to one subscriber reaching a "send mail" action.
 */
export class Send extends Schema.Class<Send>("Send")({
  id: SendId,
  uuid: SendUuid,
  campaignId: Schema.NullOr(CampaignId),
  transactionalMailId: Schema.NullOr(TransactionalMailId),
  /** The automation mail this send delivers (one per subscriber per run of an automation). */
  automationMailId: Schema.NullOr(AutomationMailId),
  subscriberId: Schema.NullOr(SubscriberId),
  /** The address when the send was created (kept when the subscriber is deleted). */
  email: Schema.String,
  transportMessageId: Schema.NullOr(Schema.String),
  sentAt: OptionalTime,
  failedAt: OptionalTime,
  failureReason: Schema.NullOr(Schema.String),
  /** How many times the mail was handed to the transport. */
  attempts: Schema.Int,
  /**
   * The connection was lost after the mail was handed over, so it may or may not have arrived; it counts as sent and is
   * never mailed again (DECISIONS 13).
   */
  deliveryUncertain: Schema.Boolean,
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
  /** Hand-overs to the transport so far. */
  readonly attempts: number
  /** When its temporary failures began (null before any); retries stop once DELIVERY_RETRY_HOURS have passed. */
  readonly deferredSince: Date | null
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
