import { Schema } from "effect"
import { EmailText, optionalNullable, required } from "./Fields.js"

/** What a provider reported: a hard bounce, a soft (temporary) bounce or a spam complaint. */
export const BounceType = Schema.Literal("bounce", "soft_bounce", "complaint")
/** @since 0.1.0 */
export type BounceType = typeof BounceType.Type

/** Body of POST /api/feedback: a bounce or complaint for an address, optionally tied to one send. */
export class FeedbackInput extends Schema.Class<FeedbackInput>("FeedbackInput")({
  type: required(
    "type",
    BounceType.annotations({ message: () => "The selected type is invalid. Allowed types are bounce, soft_bounce, complaint." })
  ),
  email: required("email", EmailText("email")),
  sendUuid: optionalNullable("send_uuid", Schema.String)
}) {}

/** One row of a campaign's opens list. */
export interface OpenRow {
  readonly subscriberId: number
  readonly subscriberUuid: string | null
  readonly subscriberEmail: string
  readonly openCount: number
  readonly firstOpenedAt: Date
  readonly lastOpenedAt: Date
}

/** One row of a campaign's clicks list. */
export interface ClickRow {
  readonly id: number
  readonly url: string
  readonly clickCount: number
  readonly uniqueClickCount: number
}

/** One row of a campaign's unsubscribes list. */
export interface UnsubscribeRow {
  readonly campaignId: number
  readonly subscriberId: number
  readonly subscriberUuid: string | null
  readonly subscriberEmail: string
  readonly createdAt: Date
}

/** One row of a campaign's bounces list (per subscriber and type). */
export interface BounceRow {
  readonly subscriberUuid: string | null
  readonly subscriberEmail: string
  readonly subscriberEmailListUuid: string | null
  readonly type: BounceType
  readonly bounceCount: number
  readonly createdAt: Date
}
