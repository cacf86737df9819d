import { Context, type Effect, Schema } from "effect"

/** An address with an optional display name. */
export interface MailAddress {
  readonly email: string
  readonly name?: string | null
}

/** One mail to one recipient, fully rendered. */
export interface MailMessage {
  readonly from: MailAddress
  readonly to: MailAddress
  readonly replyTo?: MailAddress | null
  readonly subject: string
  readonly html: string
  readonly text?: string
  /** Extra headers, e.g. List-Unsubscribe. */
  readonly headers?: Readonly<Record<string, string>>
}

/** Delivery of a mail failed; `permanent` (an SMTP 5xx answer) means retrying cannot help. */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String,
  permanent: Schema.Boolean
}) {}

/** Hands mails to a transport (SMTP, a directory of .eml files, memory in tests). */
export class Mailer extends Context.Tag("@mailroom/Mailer")<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}>() {}
