import { createPublicKey, type KeyObject, verify } from "node:crypto"
import { type RequestCheck, Unauthenticated } from "@mailroom/core"
import { Effect } from "effect"

const refused = new Unauthenticated({ message: "The SendGrid webhook signature is missing or not valid." })

/** SendGrid's verification key as its settings page shows it (base64 DER SubjectPublicKeyInfo), or a PEM key. */
export const sendgridPublicKey = (text: string): KeyObject =>
  text.includes("-----BEGIN")
    ? createPublicKey(text.replace(/\\n/g, "\n"))
    : createPublicKey({ key: Buffer.from(text.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" })

/**
 * SendGrid's signed Event Webhook: the ECDSA signature (base64 DER) in `X-Twilio-Email-Event-Webhook-Signature`,
 * over the `X-Twilio-Email-Event-Webhook-Timestamp` header followed by the raw body, with SHA-256.
 */
export const sendgridCheck = (key: KeyObject): RequestCheck => (request) => {
  const signature = request.headers["x-twilio-email-event-webhook-signature"]
  const timestamp = request.headers["x-twilio-email-event-webhook-timestamp"]
  if (signature === undefined || timestamp === undefined) return Effect.fail(refused)
  const signed = Buffer.concat([Buffer.from(timestamp, "utf8"), request.body])
  const valid = Effect.try(() => verify("sha256", signed, { key, dsaEncoding: "der" }, Buffer.from(signature, "base64")))
  return Effect.flatMap(Effect.orElseSucceed(valid, () => false), (ok) => (ok ? Effect.void : Effect.fail(refused)))
}
