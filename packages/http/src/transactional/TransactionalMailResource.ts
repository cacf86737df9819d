import { formatTimestamp, type LoggedTransactionalMail, NamedAddress, TransactionalMailStatus } from "@mailroom/core"
import { Schema } from "effect"

/** A transactional mail of the log as the API returns it. */
export const TransactionalMailResource = Schema.Struct({
  uuid: Schema.UUID,
  mail_name: Schema.NullOr(Schema.String),
  subject: Schema.String,
  from: Schema.Array(NamedAddress).annotations({ description: "The sender, as a list of one (like to, cc and bcc)." }),
  to: Schema.Array(NamedAddress),
  cc: Schema.Array(NamedAddress),
  bcc: Schema.Array(NamedAddress),
  reply_to: Schema.Array(NamedAddress),
  html: Schema.String,
  text: Schema.NullOr(Schema.String),
  fake: Schema.Boolean,
  attachments: Schema.Array(Schema.String).annotations({ description: "The attachments' file names." }),
  send_uuid: Schema.NullOr(Schema.String).annotations({ description: "The latest send (a resend adds one)." }),
  status: TransactionalMailStatus,
  failure_reason: Schema.NullOr(Schema.String),
  transport_message_id: Schema.NullOr(Schema.String),
  opens: Schema.Int.annotations({ description: "Opens counted over the mail's sends." }),
  clicks: Schema.Int.annotations({ description: "Clicks counted over the mail's sends." }),
  track_opens: Schema.Boolean,
  track_clicks: Schema.Boolean,
  created_at: Schema.String
}).annotations({ identifier: "TransactionalMail" })

/** Renders a logged transactional mail. */
export const toTransactionalMailResource = (logged: LoggedTransactionalMail): typeof TransactionalMailResource.Type => {
  const { mail } = logged
  return {
    uuid: mail.uuid,
    mail_name: mail.mailName,
    subject: mail.subject,
    from: [mail.from],
    to: mail.to,
    cc: mail.cc,
    bcc: mail.bcc,
    reply_to: mail.replyTo,
    html: mail.html,
    text: mail.text,
    fake: mail.fake,
    attachments: mail.attachments.map((attachment) => attachment.name),
    send_uuid: logged.sendUuid,
    status: logged.status,
    failure_reason: logged.failureReason,
    transport_message_id: logged.transportMessageId,
    opens: logged.opens,
    clicks: logged.clicks,
    track_opens: mail.trackOpens,
    track_clicks: mail.trackClicks,
    created_at: formatTimestamp(mail.createdAt)
  }
}
