import { Context } from "effect"

/** SHA-256 of `data` (UTF-8), hex encoded, computed synchronously. */
export type Sha256Function = (data: string) => string

/**
 * A synchronous SHA-256 for hashing API token secrets on every request (the server provides node:crypto's). Without
 * one, hashing uses Web Crypto, which is asynchronous: correct everywhere, but a thread hop per request.
 */
export class Sha256 extends Context.Reference<Sha256>()("@mailroom/Sha256", {
  defaultValue: (): Sha256Function | null => null
}) {}
