import { Context, type Effect, Schema } from "effect"
import type { MailLayout } from "../domain/MailLayout.js"

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

/** One recipient's mail of a layout: everything but the bodies, and the values of the layout's holes. */
export interface LayoutMail {
  readonly from: MailAddress
  readonly to: MailAddress
  readonly replyTo?: MailAddress | null
  readonly subject: string
  readonly headers?: Readonly<Record<string, string>>
  readonly values: ReadonlyArray<string>
}

/** Delivery of a mail failed; `permanent` (an SMTP 5xx answer) means retrying cannot help. */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String,
  permanent: Schema.Boolean
}) {}

/**
 * Hands mails to a transport (SMTP, a directory of .eml files, memory in tests). A transport may also offer `prepare`,
 * the bulk path: it sees a campaign's layout once (and, say, encodes its fixed parts), then each mail brings only its
 * values. Without it, campaign mails are rendered whole and go through `send`.
 */
export class Mailer extends Context.Tag("@mailroom/Mailer")<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
  readonly prepare?: (layout: MailLayout) => (mail: LayoutMail) => Effect.Effect<void, MailError>
}>() {}
