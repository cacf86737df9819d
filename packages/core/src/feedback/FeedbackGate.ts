import { Context, type Effect } from "effect"
import type { Unauthenticated } from "../errors/Unauthenticated.js"
import type { MailgunSignature } from "./mailgunReports.js"
import type { MalformedFeedback } from "./MalformedFeedback.js"
import type { SnsMessage } from "./snsMessage.js"

/** A provider's webhook request as received: the raw body (signatures cover its bytes), headers and path secret. */
export interface FeedbackRequest {
  readonly body: Uint8Array
  /** The body decoded as UTF-8. */
  readonly text: string
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The secret path segment (`/feedback/postmark/{secret}`), null on the plain path. */
  readonly secret: string | null
}

/** How an SNS delivery (SES feedback) is checked and a subscription confirmed. */
export interface SnsGate {
  /** Checks the message's signature against the SNS certificate and its topic against the allowed ones. */
  readonly verify: (message: SnsMessage) => Effect.Effect<void, Unauthenticated>
  /** Confirms a subscription by fetching its SubscribeURL (only an SNS address); MalformedFeedback when refused. */
  readonly confirm: (subscribeUrl: string) => Effect.Effect<void, MalformedFeedback>
}

/** A check that a request comes from the provider (basic auth, secret path or signature over the raw body). */
export type RequestCheck = (request: FeedbackRequest) => Effect.Effect<void, Unauthenticated>

/** Each provider's check; null for a provider that is not configured. */
export interface FeedbackChecks {
  readonly ses: SnsGate | null
  readonly postmark: RequestCheck | null
  readonly mailgun: ((signature: MailgunSignature) => Effect.Effect<void, Unauthenticated>) | null
  readonly sendgrid: RequestCheck | null
}

/**
 * How each provider's webhooks are authenticated (the server provides node:crypto's checks from its configuration);
 * a provider that is not configured answers 404. By default none is.
 */
export class FeedbackGate extends Context.Reference<FeedbackGate>()("@mailroom/FeedbackGate", {
  defaultValue: (): FeedbackChecks => ({ ses: null, postmark: null, mailgun: null, sendgrid: null })
}) {}
