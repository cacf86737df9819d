import { verify } from "node:crypto"
import { MalformedFeedback, type SnsGate, snsSignatureHash, snsStringToSign, Unauthenticated } from "@mailroom/core"
import { Effect, Either } from "effect"
import { isSnsCertificateUrl, type SnsCertificates } from "./snsCertificates.js"

const refused = (reason: string) => new Unauthenticated({ message: `The SNS message ${reason}.` })

/** Whether a SubscribeURL is SNS's own (https on `sns.<region>.amazonaws.com`) or on the extra allowed origin. */
const confirmable = (url: URL, extraOrigin: string | null): boolean =>
  (url.protocol === "https:" && /^sns\.[a-z0-9-]+\.amazonaws\.com$/.test(url.hostname)) ||
  (extraOrigin !== null && url.origin === extraOrigin)

/**
 * SES feedback over SNS: the message's signature (version 1 SHA1withRSA, 2 SHA256withRSA over the canonical string)
 * checked with the certificate of its SigningCertURL (only SNS's own), its topic among `topicArns` (null: any topic),
 * and subscriptions confirmed by a GET of their SubscribeURL (10 s timeout).
 */
export const snsGate = (options: {
  readonly topicArns: ReadonlyArray<string> | null
  readonly certificates: SnsCertificates
  readonly subscribeOrigin: string | null
}): SnsGate => ({
  verify: (message) =>
    Effect.gen(function*() {
      if (options.topicArns !== null && !options.topicArns.includes(message.TopicArn)) {
        return yield* refused("comes from a topic that is not allowed")
      }
      const url = URL.canParse(message.SigningCertURL) ? new URL(message.SigningCertURL) : null
      if (url === null || !isSnsCertificateUrl(url)) return yield* refused("names a signing certificate that is not SNS's")
      const signed = snsStringToSign(message)
      if (Either.isLeft(signed)) return yield* refused("lacks a signed field")
      const keys = yield* Effect.mapError(options.certificates(url), (error) =>
        refused(`cannot be verified: its certificate could not be read (${error.message})`))
      const signature = Buffer.from(message.Signature, "base64")
      const data = Buffer.from(signed.right, "utf8")
      const hash = snsSignatureHash(message)
      const matches = keys.some((key) => {
        try {
          return verify(hash, data, key, signature)
        } catch {
          return false
        }
      })
      if (!matches) return yield* refused("signature is not valid")
    }),
  confirm: (subscribeUrl) =>
    Effect.gen(function*() {
      const url = URL.canParse(subscribeUrl) ? new URL(subscribeUrl) : null
      if (url === null || !confirmable(url, options.subscribeOrigin)) {
        return yield* MalformedFeedback.of("The SubscribeURL is not an SNS address.")
      }
      const status = yield* Effect.tryPromise({
        try: () => fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "error" }).then((r) => r.status),
        catch: (error) => MalformedFeedback.of(`The subscription could not be confirmed (${(error as Error).message}).`)
      })
      if (status < 200 || status > 299) return yield* MalformedFeedback.of(`The subscription could not be confirmed (HTTP ${status}).`)
    })
})
