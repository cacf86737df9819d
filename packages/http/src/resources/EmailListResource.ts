import { type EmailList, formatTimestamp } from "@mailroom/core"
import { Schema } from "effect"

const text = Schema.NullOr(Schema.String)

/** An email list as the API returns it. */
export const EmailListResource = Schema.Struct({
  id: Schema.Int,
  uuid: Schema.UUID,
  name: Schema.String,
  active_subscribers_count: Schema.Int,
  campaigns_feed_enabled: Schema.Boolean,
  default_from_email: Schema.String,
  default_from_name: text,
  default_reply_to_email: text,
  default_reply_to_name: text,
  allow_form_subscriptions: Schema.Boolean,
  honeypot_field: text,
  redirect_after_subscribed: text,
  redirect_after_already_subscribed: text,
  redirect_after_subscription_pending: text,
  redirect_after_unsubscribed: text,
  requires_confirmation: Schema.Boolean,
  confirmation_mailable_class: text,
  campaign_mailer: text,
  automation_mailer: text,
  transactional_mailer: text,
  report_recipients: text,
  report_campaign_sent: Schema.Boolean,
  report_campaign_summary: Schema.Boolean,
  report_email_list_summary: Schema.Boolean,
  email_list_summary_sent_at: text,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "EmailList" })

/** Renders an email list. */
export const toEmailListResource = (list: EmailList): typeof EmailListResource.Type => ({
  id: list.id,
  uuid: list.uuid,
  name: list.name,
  active_subscribers_count: list.activeSubscribersCount,
  campaigns_feed_enabled: list.campaignsFeedEnabled,
  default_from_email: list.defaultFromEmail,
  default_from_name: list.defaultFromName,
  default_reply_to_email: list.defaultReplyToEmail,
  default_reply_to_name: list.defaultReplyToName,
  allow_form_subscriptions: list.allowFormSubscriptions,
  honeypot_field: list.honeypotField,
  redirect_after_subscribed: list.redirectAfterSubscribed,
  redirect_after_already_subscribed: list.redirectAfterAlreadySubscribed,
  redirect_after_subscription_pending: list.redirectAfterSubscriptionPending,
  redirect_after_unsubscribed: list.redirectAfterUnsubscribed,
  requires_confirmation: list.requiresConfirmation,
  confirmation_mailable_class: list.confirmationMailableClass,
  campaign_mailer: list.campaignMailer,
  automation_mailer: list.automationMailer,
  transactional_mailer: list.transactionalMailer,
  report_recipients: list.reportRecipients,
  report_campaign_sent: list.reportCampaignSent,
  report_campaign_summary: list.reportCampaignSummary,
  report_email_list_summary: list.reportEmailListSummary,
  email_list_summary_sent_at: list.emailListSummarySentAt === null ? null : formatTimestamp(list.emailListSummarySentAt),
  created_at: formatTimestamp(list.createdAt),
  updated_at: formatTimestamp(list.updatedAt)
})
