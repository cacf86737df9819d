import type { BounceType } from "../domain/Feedback.js"
import type { ClaimedSend } from "../domain/Send.js"
import type { MailError } from "../ports/Mailer.js"
import type { DeliveryResult } from "../ports/SendRepository.js"
import { bounceTypeOf } from "./BouncePolicy.js"

/** A send's result to record, and the bounce it amounts to (applied through the bounce policy), if any. */
export interface DeliveryOutcome {
  readonly result: DeliveryResult
  readonly bounce: BounceType | null
}

/**
 * Delay before the next try after a temporary failure of try `attempt` (1-based): 30 s doubling, at most an hour, for
 * a refusal about the mail or its recipient (a 4xx reply: greylisting, a busy mailbox); a flat 30 s when the server
 * could not be reached or turned every mail away (no reply code, or 421), so that a campaign resumes within about
 * 30 s once its SMTP server is back, however long the outage was.
 */
export const sendRetryDelayMillis = (attempt: number, code: number | null = 450): number =>
  code === null || code === 421 ? 30_000 : Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000)

/**
 * What handing a send's mail to the transport came to, at `at`: sent (also when the outcome is unknown: the mail may
 * have arrived, so it is never sent again); failed with a bounce for a permanent refusal; retried after
 * `sendRetryDelayMillis` for a temporary one, until `retryForMillis` have passed since its first temporary failure, after which it fails as a soft
 * bounce (as an MTA gives up a queued mail).
 */
export const deliveryOutcome = (
  send: Pick<ClaimedSend, "id" | "attempts" | "deferredSince">,
  error: MailError | null,
  at: Date,
  retryForMillis: number
): DeliveryOutcome => {
  if (error === null) return { result: { _tag: "Sent", id: send.id, transportMessageId: null }, bounce: null }
  switch (error.failure) {
    case "unknown":
      return { result: { _tag: "Sent", id: send.id, transportMessageId: null, uncertain: true }, bounce: null }
    case "permanent":
      return { result: { _tag: "Failed", id: send.id, reason: error.message, attempted: true }, bounce: bounceTypeOf(error) }
    case "temporary": {
      const since = send.deferredSince?.getTime() ?? at.getTime()
      if (at.getTime() - since >= retryForMillis) {
        const hours = Math.round(retryForMillis / 360_000) / 10
        return {
          result: { _tag: "Failed", id: send.id, reason: `Gave up after ${hours} h of temporary failures; last: ${error.message}`, attempted: true },
          bounce: "soft_bounce"
        }
      }
      return {
        result: {
          _tag: "Retry",
          id: send.id,
          reason: error.message,
          retryAt: new Date(at.getTime() + sendRetryDelayMillis(send.attempts + 1, error.code))
        },
        bounce: null
      }
    }
  }
}
