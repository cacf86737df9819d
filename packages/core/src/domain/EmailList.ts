import { Schema } from "effect"
import { EmailListId, EmailListUuid } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** An audience: subscribers, their tags and segments, plus sender defaults and list settings. */
export class EmailList extends Schema.Class<EmailList>("EmailList")({
  id: EmailListId,
  uuid: EmailListUuid,
  name: Schema.String,
  activeSubscribersCount: Schema.Int,
  campaignsFeedEnabled: Schema.Boolean,
  defaultFromEmail: Schema.String,
  defaultFromName: Schema.NullOr(Schema.String),
  defaultReplyToEmail: Schema.NullOr(Schema.String),
  defaultReplyToName: Schema.NullOr(Schema.String),
  allowFormSubscriptions: Schema.Boolean,
  honeypotField: Schema.NullOr(Schema.String),
  redirectAfterSubscribed: Schema.NullOr(Schema.String),
  redirectAfterAlreadySubscribed: Schema.NullOr(Schema.String),
  redirectAfterSubscriptionPending: Schema.NullOr(Schema.String),
  redirectAfterUnsubscribed: Schema.NullOr(Schema.String),
  requiresConfirmation: Schema.Boolean,
  confirmationMailableClass: Schema.NullOr(Schema.String),
  campaignMailer: Schema.NullOr(Schema.String),
  automationMailer: Schema.NullOr(Schema.String),
  transactionalMailer: Schema.NullOr(Schema.String),
  reportRecipients: Schema.NullOr(Schema.String),
  reportCampaignSent: Schema.Boolean,
  reportCampaignSummary: Schema.Boolean,
  reportEmailListSummary: Schema.Boolean,
  emailListSummarySentAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** The settings of a list that a client writes (everything but ids, counters and timestamps). */
export type EmailListSettings = Omit<
  EmailList,
  "id" | "uuid" | "activeSubscribersCount" | "emailListSummarySentAt" | "createdAt" | "updatedAt"
>
