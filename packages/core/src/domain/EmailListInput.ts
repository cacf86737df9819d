import { Schema } from "effect"
import {
  EmailText,
  Flag,
  NullableEmailList,
  NullableText,
  NullableWebUrl,
  optionalNullable,
  required,
  RequiredText
} from "./Fields.js"

const text = (key: string, max = 255) => optionalNullable(key, NullableText(key, max))
const url = (key: string) => optionalNullable(key, NullableWebUrl(key))
const flag = (key: string) => optionalNullable(key, Flag(key))

/** Body of email list create and update (update is a full replace: absent fields take their defaults). */
export class EmailListInput extends Schema.Class<EmailListInput>("EmailListInput")({
  name: required("name", RequiredText("name")),
  defaultFromEmail: required("default_from_email", EmailText("default_from_email")),
  defaultFromName: text("default_from_name"),
  defaultReplyToEmail: optionalNullable("default_reply_to_email", NullableEmailList("default_reply_to_email")),
  defaultReplyToName: text("default_reply_to_name"),
  defaultReplyEmail: optionalNullable("default_reply_email", NullableEmailList("default_reply_email")),
  defaultReplyName: text("default_reply_name"),
  campaignsFeedEnabled: flag("campaigns_feed_enabled"),
  allowFormSubscriptions: flag("allow_form_subscriptions"),
  requiresConfirmation: flag("requires_confirmation"),
  reportCampaignSent: flag("report_campaign_sent"),
  reportCampaignSummary: flag("report_campaign_summary"),
  reportEmailListSummary: flag("report_email_list_summary"),
  reportRecipients: optionalNullable("report_recipients", NullableEmailList("report_recipients")),
  campaignMailer: text("campaign_mailer"),
  automationMailer: text("automation_mailer"),
  transactionalMailer: text("transactional_mailer"),
  redirectAfterSubscribed: url("redirect_after_subscribed"),
  redirectAfterAlreadySubscribed: url("redirect_after_already_subscribed"),
  redirectAfterSubscriptionPending: url("redirect_after_subscription_pending"),
  redirectAfterUnsubscribed: url("redirect_after_unsubscribed"),
  honeypotField: text("honeypot_field"),
  allowedFormSubscriptionTags: optionalNullable(
    "allowed_form_subscription_tags",
    Schema.Array(Schema.String).annotations({
      message: () => "The allowed form subscription tags field must be an array of tag names."
    })
  )
}) {}
