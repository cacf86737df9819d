import { formatTimestamp, type ListedTransactionalTemplate } from "@mailroom/core"
import { Schema } from "effect"

const Recipients = Schema.NullOr(Schema.Array(Schema.String))

/** A transactional mail template as the API returns it, with statistics over its logged mails. */
export const TransactionalTemplateResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String.annotations({ description: "What a send's `mail_name` names (unique, ignoring case)." }),
  subject: Schema.String,
  html: Schema.String,
  text: Schema.NullOr(Schema.String),
  type: Schema.Literal("html", "markdown"),
  to: Recipients,
  cc: Recipients,
  bcc: Recipients,
  store_mail: Schema.Boolean,
  track_opens: Schema.Boolean,
  track_clicks: Schema.Boolean,
  sent_count: Schema.Int,
  open_count: Schema.Int,
  unique_open_count: Schema.Int,
  click_count: Schema.Int,
  unique_click_count: Schema.Int,
  bounce_count: Schema.Int,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "TransactionalMailTemplate" })

/** Renders a transactional template with its statistics. */
export const toTransactionalTemplateResource = (
  { statistics, template }: ListedTransactionalTemplate
): typeof TransactionalTemplateResource.Type => ({
  uuid: template.uuid,
  name: template.name,
  subject: template.subject,
  html: template.html,
  text: template.text,
  type: template.type,
  to: template.to,
  cc: template.cc,
  bcc: template.bcc,
  store_mail: template.storeMail,
  track_opens: template.trackOpens,
  track_clicks: template.trackClicks,
  sent_count: statistics.sentCount,
  open_count: statistics.openCount,
  unique_open_count: statistics.uniqueOpenCount,
  click_count: statistics.clickCount,
  unique_click_count: statistics.uniqueClickCount,
  bounce_count: statistics.bounceCount,
  created_at: formatTimestamp(template.createdAt),
  updated_at: formatTimestamp(template.updatedAt)
})
