import { Schema } from "effect"
import { CampaignCounters } from "../domain/Campaign.js"
import { TemplateId } from "../domain/Ids.js"
import { Timestamp } from "../domain/Timestamp.js"
import { AutomationMailId, AutomationMailUuid } from "./AutomationIds.js"

/**
 * A mail an automation sends to whoever reaches one of its "send mail" actions: content and sender like a campaign's,
 * no list, status or schedule, and the campaign statistics (counted as its mails go out and are opened or clicked).
 */
export class AutomationMail extends Schema.Class<AutomationMail>("AutomationMail")({
  id: AutomationMailId,
  uuid: AutomationMailUuid,
  name: Schema.String,
  subject: Schema.NullOr(Schema.String),
  fromEmail: Schema.NullOr(Schema.String),
  fromName: Schema.NullOr(Schema.String),
  replyToEmail: Schema.NullOr(Schema.String),
  replyToName: Schema.NullOr(Schema.String),
  html: Schema.NullOr(Schema.String),
  templateId: Schema.NullOr(TemplateId),
  fields: Schema.Record({ key: Schema.String, value: Schema.String }),
  emailHtml: Schema.NullOr(Schema.String),
  webviewHtml: Schema.NullOr(Schema.String),
  utmTags: Schema.Boolean,
  addSubscriberTags: Schema.Boolean,
  addSubscriberLinkTags: Schema.Boolean,
  /** Mails carry an open pixel. */
  trackOpens: Schema.Boolean,
  /** Links in mails go through click tracking. */
  trackClicks: Schema.Boolean,
  ...CampaignCounters.fields,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** An automation mail with the public id of its template (null when it has none or it is gone). */
export interface ListedAutomationMail {
  readonly mail: AutomationMail
  readonly templateUuid: string | null
}
