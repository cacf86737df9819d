import { type Campaign, formatTimestamp } from "@mailroom/core"
import { Schema } from "effect"
import { mailStatistics, MailStatisticsFields } from "./mailStatistics.js"

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
  ...MailStatisticsFields,
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
    sent_to_number_of_subscribers: String(campaign.sentToNumberOfSubscribers),
    segment_class: null,
    segment_description: campaign.segmentDescription,
    ...mailStatistics(campaign),
    sent_at: stamp(campaign.sentAt),
    statistics_calculated_at: stamp(campaign.statisticsCalculatedAt),
    scheduled_at: stamp(campaign.scheduledAt),
    last_modified_at: formatTimestamp(campaign.updatedAt),
    summary_mail_sent_at: stamp(campaign.summaryMailSentAt),
    created_at: formatTimestamp(campaign.createdAt),
    updated_at: formatTimestamp(campaign.updatedAt)
  }
}
