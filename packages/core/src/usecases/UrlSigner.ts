import { Clock, Effect } from "effect"
import { HmacSha256 } from "../ports/HmacSha256.js"
import { SettingsRepository } from "../ports/SettingsRepository.js"
import type { LinkPurpose, SendSignatures } from "../sending/PublicLinks.js"

const KEY = "url-signing-key"
/** When this installation began signing each kind of link for its own purpose (older mails carry one signature). */
const PURPOSES_SINCE = "url-purposes-since"

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

const LINK_TOKEN = /^(\d{1,10})(?:\.([A-Za-z0-9_-]{16}))?$/
const MAX_ID = 2 ** 31 - 1

/**
 * Signs ids in public links with an HMAC key kept in the store, shared by every process. Each purpose (open pixel,
 * click, unsubscribe, web view, confirmation) signs a differently prefixed value, and a tracked link's id goes out
 * with its own signature (`42.<signature>`), so ids cannot be listed or links used for another purpose.
 */
export class UrlSigner extends Effect.Service<UrlSigner>()("@mailroom/UrlSigner", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepository
    const fresh = toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)))
    const secret = yield* settings.getOrInit(KEY, fresh)
    const purposesSince = new Date(yield* settings.getOrInit(PURPOSES_SINCE, new Date(yield* Clock.currentTimeMillis).toISOString()))
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

    /** True when `signature` is the signature of `value` (compared in constant time). */
    const verify = (value: string, signature: string) =>
      Effect.map(sign(value), (expected) => {
        if (expected.length !== signature.length) return false
        let diff = 0
        for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i)
        return diff === 0
      })

    /** Every link signature of a send. */
    const signSend = (sendUuid: string): Effect.Effect<SendSignatures> =>
      Effect.all({
        open: sign(`open:${sendUuid}`),
        click: sign(`click:${sendUuid}`),
        unsubscribe: sign(`unsubscribe:${sendUuid}`),
        webview: sign(`webview:${sendUuid}`)
      })

    /** True when `signature` is the send's signature for `purpose`. */
    const verifySend = (purpose: LinkPurpose, sendUuid: string, signature: string) => verify(`${purpose}:${sendUuid}`, signature)

    /** A tracked link's id as click URLs carry it: the id and its signature. */
    const linkToken = (linkId: number) => Effect.map(sign(`link:${linkId}`), (signature) => `${linkId}.${signature}`)

    /** The link token of each tracked link, by the link as written (a mail's `linkTokens`). */
    const linkTokens = (links: ReadonlyArray<{ readonly id: number; readonly url: string }>) =>
      Effect.map(
        Effect.forEach(links, (link) => Effect.map(linkToken(link.id), (token) => [link.url, token] as const)),
        (entries) => new Map(entries)
      )

    /**
     * The link id a click URL names: `signed` with its own signature (`42.<signature>`), or bare (`42`, as mails sent
     * before purposes carry it); null when it is malformed, out of range or its signature is wrong.
     */
    const linkIdOf = (token: string) =>
      Effect.gen(function*() {
        const match = LINK_TOKEN.exec(token)
        const id = match === null ? NaN : Number(match[1])
        if (!(id >= 1 && id <= MAX_ID)) return null
        const signature = match![2]
        if (signature === undefined) return { id, signed: false }
        return (yield* verify(`link:${id}`, signature)) ? { id, signed: true } : null
      })

    /**
     * True when a link of a send mailed before purposes (`sentAt` earlier) carries the send's single old signature:
     * such mails keep working for what their links did.
     */
    const verifyLegacy = (sendUuid: string, signature: string, sentAt: Date | null) =>
      sentAt !== null && sentAt.getTime() < purposesSince.getTime() ? verify(sendUuid, signature) : Effect.succeed(false)

    return { sign, verify, signSend, verifySend, linkToken, linkTokens, linkIdOf, verifyLegacy } as const
  })
}) {}
