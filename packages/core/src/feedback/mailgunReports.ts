import { Either } from "effect"
import type { BounceType } from "../domain/Feedback.js"
import { MalformedFeedback } from "./MalformedFeedback.js"
import { addressOf, asObject, isObject, type JsonObject, objectAt, stringAt } from "./payloadFields.js"
import type { ParsedFeedback } from "./ProviderReport.js"
import { sendUuidIn } from "./sendUuidIn.js"

/** The `signature` object of a Mailgun webhook: HMAC-SHA256 of timestamp + token under the webhook signing key. */
export interface MailgunSignature {
  readonly timestamp: string
  readonly token: string
  readonly signature: string
}

/** The signature of a Mailgun webhook body, or null when it carries none. */
export const mailgunSignature = (json: unknown): MailgunSignature | null => {
  const signature = isObject(json) ? objectAt(json, "signature") : undefined
  const timestamp = stringAt(signature, "timestamp")
  const token = stringAt(signature, "token")
  const hex = stringAt(signature, "signature")
  return timestamp === null || token === null || hex === null ? null : { timestamp, token, signature: hex }
}

/**
 * What a failed delivery says: a permanent failure is a bounce and a temporary one a soft bounce; a mail Mailgun did
 * not send because the address is on its complaints list is a complaint; one not sent because of its unsubscribe
 * list says nothing about the address and is ignored.
 */
const failureType = (event: JsonObject): BounceType | null => {
  const reason = stringAt(event, "reason")
  if (reason === "suppress-complaint") return "complaint"
  if (reason === "suppress-unsubscribe") return null
  return stringAt(event, "severity") === "permanent" ? "bounce" : "soft_bounce"
}

/**
 * The report of a Mailgun webhook (`event-data`): `failed` by its severity (permanent → bounce, temporary →
 * soft_bounce), `complained` → complaint; other events are ignored. The send comes from the user variables or headers
 * (`X-Mailroom-Send` or `mailroom_send`), the message id from `message.headers.message-id`.
 */
export const mailgunReports = (json: unknown): Either.Either<ParsedFeedback, MalformedFeedback> =>
  Either.flatMap(asObject(json, "The Mailgun webhook body"), (body) => {
    const event = objectAt(body, "event-data")
    if (event === undefined) return Either.left(MalformedFeedback.of("The Mailgun webhook body has no event-data."))
    const name = stringAt(event, "event")
    const type = name === "failed" ? failureType(event) : name === "complained" ? "complaint" : null
    if (type === null) return Either.right({ reports: [], ignored: 1 })
    const email = addressOf(stringAt(event, "recipient"))
    if (email === null) return Either.left(MalformedFeedback.of(`The Mailgun ${name} event has no recipient.`))
    const headers = objectAt(objectAt(event, "message"), "headers")
    const sendUuid = sendUuidIn(objectAt(event, "user-variables")) ?? sendUuidIn(headers)
    return Either.right({ reports: [{ type, email, sendUuid, messageId: stringAt(headers, "message-id") }], ignored: 0 })
  })
