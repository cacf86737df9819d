import { Either } from "effect"
import type { BounceType } from "../domain/Feedback.js"
import { MalformedFeedback } from "./MalformedFeedback.js"
import { addressOf, isObject, type JsonObject, stringAt } from "./payloadFields.js"
import type { ParsedFeedback, ProviderReport } from "./ProviderReport.js"
import { sendUuidIn } from "./sendUuidIn.js"

/**
 * Drops (mails SendGrid did not send) that say something about the address: it is on SendGrid's bounce list or was
 * rejected as invalid → bounce; it is on SendGrid's spam report list → complaint. SendGrid will not deliver to it, so
 * Mailroom suppresses it too instead of sending on in vain. Drops for unsubscribes, spam content or account limits
 * are ignored.
 */
const DROP_REASONS: Readonly<Record<string, BounceType>> = {
  "bounced address": "bounce",
  "invalid": "bounce",
  "spam reporting address": "complaint"
}

/** The feedback type of one SendGrid event, or null when it is not feedback (deferred, delivered, open, …). */
const typeOf = (event: JsonObject): BounceType | null => {
  switch (stringAt(event, "event")) {
    case "bounce":
      return stringAt(event, "type") === "blocked" ? "soft_bounce" : "bounce"
    case "dropped":
      return DROP_REASONS[(stringAt(event, "reason") ?? "").toLowerCase()] ?? null
    case "spamreport":
      return "complaint"
    default:
      return null
  }
}

/**
 * The reports of a SendGrid Event Webhook body (an array of events): `bounce` (type bounce → bounce, blocked →
 * soft_bounce), `dropped` (see DROP_REASONS), `spamreport` → complaint; other events are ignored. The send comes from a
 * custom argument (`mailroom_send`), the message id from `smtp-id` (the mail's Message-ID) or `sg_message_id`.
 */
export const sendgridReports = (json: unknown): Either.Either<ParsedFeedback, MalformedFeedback> => {
  if (!Array.isArray(json)) return Either.left(MalformedFeedback.of("The SendGrid webhook body must be a JSON array of events."))
  const reports: Array<ProviderReport> = []
  let ignored = 0
  for (const event of json) {
    const type = isObject(event) ? typeOf(event) : null
    const email = isObject(event) ? addressOf(stringAt(event, "email")) : null
    if (type === null || email === null || !isObject(event)) {
      ignored++
      continue
    }
    const messageId = stringAt(event, "smtp-id") ?? stringAt(event, "sg_message_id")
    reports.push({ type, email, sendUuid: sendUuidIn(event), messageId })
  }
  return Either.right({ reports, ignored })
}
