import { type BounceRow, BounceType, type ClickRow, formatTimestamp, type OpenRow, type UnsubscribeRow } from "@mailroom/core"
import { Schema } from "effect"

/** One subscriber's opens of a campaign. */
export const OpenResource = Schema.Struct({
  subscriber_id: Schema.Int,
  subscriber_uuid: Schema.NullOr(Schema.String),
  subscriber_email: Schema.String,
  open_count: Schema.Int,
  first_opened_at: Schema.String,
  last_opened_at: Schema.String
}).annotations({ identifier: "CampaignOpen" })

/** Renders an open row. */
export const toOpenResource = (row: OpenRow): typeof OpenResource.Type => ({
  subscriber_id: row.subscriberId,
  subscriber_uuid: row.subscriberUuid,
  subscriber_email: row.subscriberEmail,
  open_count: row.openCount,
  first_opened_at: formatTimestamp(row.firstOpenedAt),
  last_opened_at: formatTimestamp(row.lastOpenedAt)
})

/** A tracked link of a campaign with its clicks. */
export const ClickResource = Schema.Struct({
  url: Schema.String,
  unique_click_count: Schema.Int,
  click_count: Schema.Int
}).annotations({ identifier: "CampaignClick" })

/** Renders a tracked link. */
export const toClickResource = (row: ClickRow): typeof ClickResource.Type => ({
  url: row.url,
  unique_click_count: row.uniqueClickCount,
  click_count: row.clickCount
})

/** An unsubscribe attributed to a campaign. */
export const UnsubscribeResource = Schema.Struct({
  campaign_id: Schema.Int,
  campaign_uuid: Schema.String,
  subscriber_id: Schema.Int,
  subscriber_uuid: Schema.NullOr(Schema.String),
  subscriber_email: Schema.String,
  created_at: Schema.String
}).annotations({ identifier: "CampaignUnsubscribe" })

/** Renders an unsubscribe of the campaign with this uuid. */
export const toUnsubscribeResource = (campaignUuid: string) => (row: UnsubscribeRow): typeof UnsubscribeResource.Type => ({
  campaign_id: row.campaignId,
  campaign_uuid: campaignUuid,
  subscriber_id: row.subscriberId,
  subscriber_uuid: row.subscriberUuid,
  subscriber_email: row.subscriberEmail,
  created_at: formatTimestamp(row.createdAt)
})

/** A subscriber's bounces of one type for a campaign. */
export const BounceResource = Schema.Struct({
  subscriber_uuid: Schema.NullOr(Schema.String),
  subscriber_email: Schema.String,
  subscriber_email_list_uuid: Schema.NullOr(Schema.String),
  type: BounceType,
  bounce_count: Schema.Int,
  created_at: Schema.String
}).annotations({ identifier: "CampaignBounce" })

/** Renders a bounce row. */
export const toBounceResource = (row: BounceRow): typeof BounceResource.Type => ({
  subscriber_uuid: row.subscriberUuid,
  subscriber_email: row.subscriberEmail,
  subscriber_email_list_uuid: row.subscriberEmailListUuid,
  type: row.type,
  bounce_count: row.bounceCount,
  created_at: formatTimestamp(row.createdAt)
})
