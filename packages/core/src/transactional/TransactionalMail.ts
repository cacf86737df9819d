import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"
import { NamedAddress } from "./MailAddressList.js"
import { TransactionalMailId, TransactionalMailUuid, TransactionalTemplateId } from "./TransactionalIds.js"

/** A file of a transactional mail, kept with it so a resend attaches it again; `content` is base64. */
export const StoredAttachment = Schema.Struct({
  name: Schema.String,
  content: Schema.String,
  contentType: Schema.String,
  contentId: Schema.NullOr(Schema.String)
})
/** @since 0.2.0 */
export type StoredAttachment = typeof StoredAttachment.Type

/**
 * One transactional mail as it was asked for and rendered (a log item): its addresses, subject and bodies with the
 * replacements filled in, its attachments, and how it is tracked. It is delivered through its sends (one per send or
 * resend); `stored` is false for a mail sent with `store: false`, which the log does not show and which is deleted
 * once delivered.
 */
export class TransactionalMail extends Schema.Class<TransactionalMail>("TransactionalMail")({
  id: TransactionalMailId,
  uuid: TransactionalMailUuid,
  templateId: Schema.NullOr(TransactionalTemplateId),
  mailName: Schema.NullOr(Schema.String),
  subject: Schema.String,
  from: NamedAddress,
  to: Schema.Array(NamedAddress),
  cc: Schema.Array(NamedAddress),
  bcc: Schema.Array(NamedAddress),
  replyTo: Schema.Array(NamedAddress),
  html: Schema.String,
  text: Schema.NullOr(Schema.String),
  attachments: Schema.Array(StoredAttachment),
  fake: Schema.Boolean,
  stored: Schema.Boolean,
  mailer: Schema.NullOr(Schema.String),
  trackOpens: Schema.Boolean,
  trackClicks: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** How the mail's latest send went: `pending` until it is handed over, then `sent` or `failed`. */
export const TransactionalMailStatus = Schema.Literal("pending", "sent", "failed")
/** @since 0.2.0 */
export type TransactionalMailStatus = typeof TransactionalMailStatus.Type

/** A mail of the log with what its sends tell: the latest send, its status, and the opens and clicks of all of them. */
export interface LoggedTransactionalMail {
  readonly mail: TransactionalMail
  readonly sendUuid: string | null
  readonly status: TransactionalMailStatus
  readonly failureReason: string | null
  readonly transportMessageId: string | null
  readonly opens: number
  readonly clicks: number
}
