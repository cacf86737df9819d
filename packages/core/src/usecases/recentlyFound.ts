import type { ApiToken } from "../domain/ApiToken.js"

/**
 * Tokens found by their secret within the last `ttlMs`, at most `most` of them (the oldest go first): a client's
 * requests then ask the store for its token once per `ttlMs`. Keyed by the secret itself, which each request carries
 * anyway (hashing it for the key would cost what remembering saves). `forget` drops them all (a token was revoked here) and
 * makes a look-up that started before it unable to remember what it found.
 */
export const recentTokens = (ttlMs: number, most: number) => {
  const found = new Map<string, { readonly token: ApiToken; readonly until: number }>()
  let generation = 0
  return {
    /** The token remembered for this secret, unless it is older than `ttlMs`. */
    get: (secret: string, now: number): ApiToken | undefined => {
      const entry = found.get(secret)
      if (entry === undefined) return undefined
      if (entry.until > now) return entry.token
      found.delete(secret)
      return undefined
    },
    /** What `remember` needs to know whether a `forget` came after the look-up started. */
    generation: (): number => generation,
    /** Remembers a token found by a look-up that started at `since` (a generation), unless a `forget` came since. */
    remember: (secret: string, token: ApiToken, now: number, since: number): void => {
      if (since !== generation) return
      found.delete(secret)
      for (const [key, entry] of found) {
        if (entry.until > now && found.size < most) break
        found.delete(key)
      }
      found.set(secret, { token, until: now + ttlMs })
    },
    /** Forgets every token: the next request of each client asks the store. */
    forget: (): void => {
      generation++
      found.clear()
    }
  }
}
