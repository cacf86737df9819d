import { Effect } from "effect"
import { HmacSha256 } from "../ports/HmacSha256.js"
import { SettingsRepository } from "../ports/SettingsRepository.js"

const KEY = "url-signing-key"

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** Signs ids in public links (tracking, unsubscribe) with an HMAC key kept in the store, shared by every process. */
export class UrlSigner extends Effect.Service<UrlSigner>()("@mailroom/UrlSigner", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepository
    const fresh = toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)))
    const secret = yield* settings.getOrInit(KEY, fresh)
    const hmac = yield* HmacSha256
    const key = yield* Effect.promise(() =>
      globalThis.crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
        "sign"
      ])
    )

    /** A 96-bit signature of `value` (base64url, 16 characters). */
    const sign = (value: string): Effect.Effect<string> =>
      hmac !== null
        ? Effect.sync(() => toBase64Url(hmac(secret, value).subarray(0, 12)))
        : Effect.promise(() => globalThis.crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value))).pipe(
          Effect.map((mac) => toBase64Url(new Uint8Array(mac).slice(0, 12)))
        )

    /** True when `signature` is the signature of `value`. */
    const verify = (value: string, signature: string) =>
      Effect.map(sign(value), (expected) => {
        if (expected.length !== signature.length) return false
        let diff = 0
        for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i)
        return diff === 0
      })

    return { sign, verify } as const
  })
}) {}
