import type { BounceType } from "../domain/Feedback.js"

/** The email providers whose bounce and complaint webhooks Mailroom takes. */
export type FeedbackProvider = "ses" | "postmark" | "mailgun" | "sendgrid"

/** One bounce or complaint a provider reported, before it is matched to a send. */
export interface ProviderReport {
  readonly type: BounceType
  /** The recipient's address as the provider wrote it (normalized when applied). */
  readonly email: string
  /** The send's uuid, when the provider reports the mail's X-Mailroom-Send header or a custom variable holding it. */
  readonly sendUuid: string | null
  /** The mail's Message-ID (or the provider's own message id), matched against the send's transport message id. */
  readonly messageId: string | null
}

/** What a provider's payload holds: the reports to apply and how many events it carried that are not feedback. */
export interface ParsedFeedback {
  readonly reports: ReadonlyArray<ProviderReport>
  readonly ignored: number
}
