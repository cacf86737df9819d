import { basisPoints, type Campaign, formatTimestamp } from "@mailroom/core"
import { Schema } from "effect"

const text = Schema.NullOr(Schema.String)
const stamp = (date: Date | null) => (date === null ? null : formatTimestamp(date))

/** A campaign as the API returns it: counts rendered as strings, rates in basis points (6000 = 60 %). */
export const CampaignResource = Schema.Struct({
  uuid: Schema.UUID,
  name: text,
  email_list_uuid: text,
  template_uuid: text,
  segment_uuid: text,
  from_email: text,
  from_name: text,
  subject: text,
  status: Schema.String,
  html: text,
  structured_html: text,
  email_html: text,
  webview_html: text,
  fields: Schema.Union(Schema.Record({ key: Schema.String, value: Schema.String }), Schema.Tuple()),
  mailable_class: text,
  utm_tags: Schema.Boolean,
  track_opens: Schema.Boolean,
  track_clicks: Schema.Boolean,
  add_subscriber_tags: Schema.Boolean,
  add_subscriber_link_tags: Schema.Boolean,
  disable_webview: Schema.Boolean,
  sent_to_number_of_subscribers: Schema.String,
  segment_class: text,
  segment_description: Schema.String,
  open_count: Schema.String,
  unique_open_count: Schema.String,
  open_rate: Schema.Number,
  click_count: Schema.String,
  unique_click_count: Schema.String,
  click_rate: Schema.Number,
  unsubscribe_count: Schema.String,
  unsubscribe_rate: Schema.String,
  bounce_count: Schema.String,
  bounce_rate: Schema.String,
  sent_at: text,
  statistics_calculated_at: text,
  scheduled_at: text,
  last_modified_at: Schema.String,
  summary_mail_sent_at: text,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Campaign" })

/** Public ids a campaign refers to, resolved by the handler. */
export interface CampaignRefs {
  readonly emailListUuid: string | null
  readonly templateUuid?: string | null
  readonly segmentUuid?: string | null
}

/** Renders a campaign. */
export const toCampaignResource = (campaign: Campaign, refs: CampaignRefs): typeof CampaignResource.Type => {
  const sent = campaign.sentToNumberOfSubscribers
  return {
    uuid: campaign.uuid,
    name: campaign.name,
    email_list_uuid: refs.emailListUuid,
    template_uuid: refs.templateUuid ?? null,
    segment_uuid: refs.segmentUuid ?? null,
    from_email: campaign.fromEmail,
    from_name: campaign.fromName,
    subject: campaign.subject,
    status: campaign.status,
    html: campaign.html,
    structured_html: campaign.structuredHtml,
    email_html: campaign.emailHtml,
    webview_html: campaign.webviewHtml,
    fields: Object.keys(campaign.fields).length === 0 ? [] : campaign.fields,
    mailable_class: campaign.mailableClass,
    utm_tags: campaign.utmTags,
    track_opens: campaign.trackOpens,
    track_clicks: campaign.trackClicks,
    add_subscriber_tags: campaign.addSubscriberTags,
    add_subscriber_link_tags: campaign.addSubscriberLinkTags,
    disable_webview: campaign.disableWebview,
    sent_to_number_of_subscribers: String(sent),
    segment_class: null,
    segment_description: campaign.segmentDescription,
    open_count: String(campaign.openCount),
    unique_open_count: String(campaign.uniqueOpenCount),
    open_rate: basisPoints(campaign.uniqueOpenCount, sent),
    click_count: String(campaign.clickCount),
    unique_click_count: String(campaign.uniqueClickCount),
    click_rate: basisPoints(campaign.uniqueClickCount, sent),
    unsubscribe_count: String(campaign.unsubscribeCount),
    unsubscribe_rate: String(basisPoints(campaign.unsubscribeCount, sent)),
    bounce_count: String(campaign.bounceCount),
    bounce_rate: String(basisPoints(campaign.bounceCount, sent)),
    sent_at: stamp(campaign.sentAt),
    statistics_calculated_at: stamp(campaign.statisticsCalculatedAt),
    scheduled_at: stamp(campaign.scheduledAt),
    last_modified_at: formatTimestamp(campaign.updatedAt),
    summary_mail_sent_at: stamp(campaign.summaryMailSentAt),
    created_at: formatTimestamp(campaign.createdAt),
    updated_at: formatTimestamp(campaign.updatedAt)
  }
}
