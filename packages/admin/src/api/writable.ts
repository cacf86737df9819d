import type { Campaign } from "./types"

/**
 * The fields of a resource that its write body takes. Updates are full replaces and unknown keys are refused, so an
 * edit screen sends every writable field it read back, with its own changes on top: settings the screen does not
 * show are kept.
 */
export const writable = (resource: object, keys: ReadonlyArray<string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(resource).filter(([key]) => keys.includes(key)))

/** The fields an email list's write body takes. */
export const EMAIL_LIST_FIELDS = [
  "name", "default_from_email", "default_from_name", "default_reply_to_email", "default_reply_to_name",
  "campaigns_feed_enabled", "allow_form_subscriptions", "requires_confirmation", "report_campaign_sent",
  "report_campaign_summary", "report_email_list_summary", "report_recipients", "campaign_mailer", "automation_mailer",
  "transactional_mailer", "redirect_after_subscribed", "redirect_after_already_subscribed",
  "redirect_after_subscription_pending", "redirect_after_unsubscribed", "honeypot_field", "allowed_form_subscription_tags"
]

/** The fields a template's write body takes. */
export const TEMPLATE_FIELDS = ["name", "html", "structured_html"]

/** The fields a campaign's write body takes (`schedule_at` aside: the resource shows `scheduled_at`). */
export const CAMPAIGN_FIELDS = [
  "name", "email_list_uuid", "template_uuid", "fields", "segment_uuid", "html", "structured_html", "mailable_class",
  "from_email", "from_name", "subject", "utm_tags", "track_opens", "track_clicks", "add_subscriber_tags",
  "add_subscriber_link_tags", "disable_webview"
]

/**
 * A campaign's write body as it stands: every writable field, with no fields as null (the API shows them as `[]`) and
 * no HTML for a template's campaign (its HTML is made from the template and the fields).
 */
export const campaignBody = (campaign: Campaign): Record<string, unknown> => ({
  ...writable(campaign, CAMPAIGN_FIELDS),
  fields: Array.isArray(campaign.fields) ? null : campaign.fields,
  html: campaign.template_uuid ? null : campaign.html
})
