import { Schema } from "effect"
import { JsonValue } from "../domain/JsonValue.js"
import { Flag, MAX_HTML, NullableText, optionalNullable, required, Text } from "../domain/Fields.js"

/** A value of `replacements`: what the template language can show (objects too, for `{{ order.total }}`). */
const Replacements = Schema.Record({ key: Schema.String, value: JsonValue }).annotations({
  message: () => "The replacements field must be an object."
})

/** One attachment of a send: a base64 `content`, inline (shown as `cid:<content_id>`) when `content_id` is given. */
export const AttachmentInput = Schema.Struct({
  name: required("name", Text("name", 255)),
  content: required("content", Text("content", 15_000_000)),
  contentType: optionalNullable("content_type", Text("content_type", 255)),
  contentId: optionalNullable("content_id", Text("content_id", 255))
}).annotations({ message: () => "Each attachment must be an object with name and content." })
/** @since 0.2.0 */
export type AttachmentInput = typeof AttachmentInput.Type

/**
 * Body of `POST /transactional-mails/send` (and of the `render` dry run). The addresses are comma-separated strings;
 * what they hold, which of subject/html/text is needed and whether `mail_name` and `mailer` exist is checked by
 * TransactionalMails, which reports every problem at once.
 */
export class SendTransactionalMailInput extends Schema.Class<SendTransactionalMailInput>("SendTransactionalMailInput")({
  from: required("from", Text("from", 1000)),
  to: required("to", Text("to", 10_000)),
  cc: Schema.optional(NullableText("cc", 10_000)).pipe(Schema.fromKey("cc")),
  bcc: Schema.optional(NullableText("bcc", 10_000)).pipe(Schema.fromKey("bcc")),
  replyTo: Schema.optional(NullableText("reply_to", 10_000)).pipe(Schema.fromKey("reply_to")),
  mailName: Schema.optional(NullableText("mail_name", 255)).pipe(Schema.fromKey("mail_name")),
  subject: Schema.optional(NullableText("subject", 998)).pipe(Schema.fromKey("subject")),
  html: Schema.optional(NullableText("html", MAX_HTML)).pipe(Schema.fromKey("html")),
  text: Schema.optional(NullableText("text", MAX_HTML)).pipe(Schema.fromKey("text")),
  replacements: optionalNullable("replacements", Replacements),
  attachments: optionalNullable(
    "attachments",
    Schema.Array(AttachmentInput).annotations({ message: () => "The attachments field must be an array." })
  ),
  store: optionalNullable("store", Flag("store")),
  fake: optionalNullable("fake", Flag("fake")),
  mailer: Schema.optional(NullableText("mailer", 255)).pipe(Schema.fromKey("mailer")),
  trackOpens: optionalNullable("track_opens", Flag("track_opens")),
  trackClicks: optionalNullable("track_clicks", Flag("track_clicks"))
}) {}
