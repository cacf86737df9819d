import { createHmac } from "node:crypto"
import { type MailgunSignature, Unauthenticated } from "@mailroom/core"
import { Clock, Effect } from "effect"
import { safeEqual } from "./safeEqual.js"

/** How far a Mailgun signature's timestamp may be from now (Mailgun's advice: reject stale requests). */
const WINDOW_MS = 15 * 60 * 1000

const refused = (reason: string) => new Unauthenticated({ message: `The Mailgun webhook signature ${reason}.` })

/**
 * Mailgun's webhook signature: hex HMAC-SHA256 of timestamp + token under the HTTP webhook signing key, a timestamp
 * within 15 minutes of now, and a token not seen before in that window (remembered by this process only).
 */
export const mailgunCheck = (signingKey: string) => {
  const seen = new Map<string, number>()
  return (signature: MailgunSignature) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      for (const [token, until] of seen) if (until < now) seen.delete(token)
      const expected = createHmac("sha256", signingKey).update(signature.timestamp + signature.token).digest("hex")
      if (!safeEqual(signature.signature.toLowerCase(), expected)) return yield* refused("is not valid")
      const at = Number(signature.timestamp) * 1000
      if (!Number.isFinite(at) || Math.abs(now - at) > WINDOW_MS) return yield* refused("is too old")
      if (seen.has(signature.token)) return yield* refused("was used before")
      seen.set(signature.token, at + WINDOW_MS)
    })
}
