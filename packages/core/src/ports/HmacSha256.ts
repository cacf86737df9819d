import { Context } from "effect"

/** HMAC-SHA-256 of `data` under `key`, computed synchronously. */
export type HmacFunction = (key: string, data: string) => Uint8Array

/**
 * A synchronous HMAC-SHA-256 for signing links (the server provides node:crypto's). Without one, signing uses Web
 * Crypto, which is asynchronous: correct everywhere, but a thread hop per mail on the delivery path.
 */
export class HmacSha256 extends Context.Reference<HmacSha256>()("@mailroom/HmacSha256", {
  defaultValue: (): HmacFunction | null => null
}) {}
