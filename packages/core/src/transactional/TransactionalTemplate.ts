import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"
import { TransactionalTemplateId, TransactionalTemplateUuid } from "./TransactionalIds.js"

/** How a transactional template's body is written: html, or Markdown turned into html when it is sent. */
export const TransactionalTemplateType = Schema.Literal("html", "markdown")
/** @since 0.2.0 */
export type TransactionalTemplateType = typeof TransactionalTemplateType.Type

/**
 * A stored transactional mail (password reset, receipt): its subject and body in the template language, default
 * extra recipients, and whether its mails are logged and tracked. `name` is what a send's `mail_name` names.
 */
export class TransactionalTemplate extends Schema.Class<TransactionalTemplate>("TransactionalTemplate")({
  id: TransactionalTemplateId,
  uuid: TransactionalTemplateUuid,
  name: Schema.String,
  subject: Schema.String,
  html: Schema.String,
  text: Schema.NullOr(Schema.String),
  type: TransactionalTemplateType,
  to: Schema.NullOr(Schema.Array(Schema.String)),
  cc: Schema.NullOr(Schema.Array(Schema.String)),
  bcc: Schema.NullOr(Schema.Array(Schema.String)),
  storeMail: Schema.Boolean,
  trackOpens: Schema.Boolean,
  trackClicks: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** What a template's mails did, over its log items: mails sent, opens, clicks, and sends with a bounce or complaint. */
export interface TransactionalTemplateStatistics {
  readonly sentCount: number
  readonly openCount: number
  readonly uniqueOpenCount: number
  readonly clickCount: number
  readonly uniqueClickCount: number
  readonly bounceCount: number
}

/** A template with its statistics, as it is listed. */
export interface ListedTransactionalTemplate {
  readonly template: TransactionalTemplate
  readonly statistics: TransactionalTemplateStatistics
}
