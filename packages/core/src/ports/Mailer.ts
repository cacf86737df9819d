import { Context, type Effect, Schema } from "effect"
import type { MailLayout } from "../domain/MailLayout.js"

/** An address with an optional display name. */
export interface MailAddress {
  readonly email: string
  readonly name?: string | null
}

/**
 * A file sent with a mail: `content` is base64 (the API's form, written into the MIME part as it is, in lines); with a
 * `contentId` it is an inline part the html shows as `cid:<contentId>`, else an attachment.
 */
export interface MailAttachment {
  readonly name: string
  readonly content: string
  readonly contentType: string
  readonly contentId?: string | null
}

/**
 * One mail, fully rendered: to one recipient (campaigns, confirmations), or with more To, Cc and Bcc recipients and
 * attachments (transactional mails). Every recipient is in the SMTP envelope; Bcc recipients are in no header. The
 * transport hands it over to all of them or to none (a refused recipient fails the whole mail).
 */
export interface MailMessage {
  readonly from: MailAddress
  readonly to: MailAddress
  /** More To recipients after `to`. */
  readonly moreTo?: ReadonlyArray<MailAddress>
  readonly cc?: ReadonlyArray<MailAddress>
  readonly bcc?: ReadonlyArray<MailAddress>
  readonly replyTo?: MailAddress | null
  readonly subject: string
  readonly html: string
  readonly text?: string
  readonly attachments?: ReadonlyArray<MailAttachment>
  /** Extra headers, e.g. List-Unsubscribe. */
  readonly headers?: Readonly<Record<string, string>>
  /** The envelope sender (SMTP MAIL FROM, where bounces go); the From address when absent. */
  readonly envelopeFrom?: string | null
}

/** One recipient's mail of a layout: everything but the bodies, and the values of the layout's holes. */
export interface LayoutMail {
  readonly from: MailAddress
  readonly to: MailAddress
  readonly replyTo?: MailAddress | null
  readonly subject: string
  readonly headers?: Readonly<Record<string, string>>
  /** The envelope sender (SMTP MAIL FROM, where bounces go); the From address when absent. */
  readonly envelopeFrom?: string | null
  readonly values: ReadonlyArray<string>
}

/**
 * How handing a mail to the transport failed: `temporary` (refused for now, e.g. an SMTP 4xx or no connection: retry
 * later), `permanent` (refused for good, an SMTP 5xx: never retried) or `unknown` (the connection was lost after the
 * message was handed over: it may have been accepted, so it is never re-sent automatically; DECISIONS 13).
 */
export const MailFailure = Schema.Literal("temporary", "permanent", "unknown")
/** @since 0.1.0 */
export type MailFailure = typeof MailFailure.Type

/** Delivery of a mail failed, with the SMTP reply code and enhanced status code (RFC 3463) when the server refused it. */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String,
  failure: MailFailure,
  code: Schema.optionalWith(Schema.NullOr(Schema.Int), { default: () => null }),
  enhancedCode: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
}) {
  /** Refused for good: retrying cannot help. */
  get permanent(): boolean {
    return this.failure === "permanent"
  }
}

/**
 * Hands mails to a transport (SMTP, a directory of .eml files, memory in tests). A transport may also offer `prepare`,
 * the bulk path: it sees a campaign's layout once (and, say, encodes its fixed parts), then each mail brings only its
 * values. Without it, campaign mails are rendered whole and go through `send`.
 */
export class Mailer extends Context.Tag("@mailroom/Mailer")<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
  readonly prepare?: (layout: MailLayout) => (mail: LayoutMail) => Effect.Effect<void, MailError>
}>() {}
