import { formatTimestamp, type ListedAutomationMail } from "@mailroom/core"
import { Schema } from "effect"
import { mailStatistics, MailStatisticsFields } from "../resources/mailStatistics.js"

const text = Schema.NullOr(Schema.String)

/** An automation mail as the API returns it: its content and switches, and statistics shaped like a campaign's. */
export const AutomationMailResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  subject: text,
  from_email: text,
  from_name: text,
  reply_to_email: text,
  html: text,
  template_uuid: text,
  fields: Schema.Record({ key: Schema.String, value: Schema.String }),
  email_html: text,
  webview_html: text,
  utm_tags: Schema.Boolean,
  add_subscriber_tags: Schema.Boolean,
  add_subscriber_link_tags: Schema.Boolean,
  track_opens: Schema.Boolean,
  track_clicks: Schema.Boolean,
  sent_to_number_of_subscribers: Schema.String,
  ...MailStatisticsFields,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "AutomationMail" })

/** Renders an automation mail (counts as strings, rates in basis points, as campaigns). */
export const toAutomationMailResource = ({ mail, templateUuid }: ListedAutomationMail): typeof AutomationMailResource.Type => {
  return {
    uuid: mail.uuid,
    name: mail.name,
    subject: mail.subject,
    from_email: mail.fromEmail,
    from_name: mail.fromName,
    reply_to_email: mail.replyToEmail,
    html: mail.html,
    template_uuid: templateUuid,
    fields: mail.fields,
    email_html: mail.emailHtml,
    webview_html: mail.webviewHtml,
    utm_tags: mail.utmTags,
    add_subscriber_tags: mail.addSubscriberTags,
    add_subscriber_link_tags: mail.addSubscriberLinkTags,
    track_opens: mail.trackOpens,
    track_clicks: mail.trackClicks,
    sent_to_number_of_subscribers: String(mail.sentToNumberOfSubscribers),
    ...mailStatistics(mail),
    created_at: formatTimestamp(mail.createdAt),
    updated_at: formatTimestamp(mail.updatedAt)
  }
}

/** An unsubscribe attributed to an automation mail. */
export const AutomationMailUnsubscribeResource = Schema.Struct({
  automation_mail_uuid: Schema.String,
  subscriber_id: Schema.Int,
  subscriber_uuid: Schema.NullOr(Schema.String),
  subscriber_email: Schema.String,
  created_at: Schema.String
}).annotations({ identifier: "AutomationMailUnsubscribe" })
