import { Effect } from "effect"

/**
 * Things found by a key within the last `ttlMs`, at most `most` of them (the oldest go first): a client's requests then
 * ask the store for one (its token, its list) once per `ttlMs`. `forget` drops them all (one was changed or deleted
 * here) and makes a look-up that started before it unable to remember what it found; `changing` runs a change and then
 * forgets, whatever becomes of the change.
 */
export const recentlyFound = <A>(ttlMs: number, most: number) => {
  const found = new Map<string, { readonly value: A; readonly until: number }>()
  let generation = 0
  const forget = (): void => {
    generation++
    found.clear()
  }
  return {
    /** What was remembered for this key, unless it is older than `ttlMs`. */
    get: (key: string, now: number): A | undefined => {
      const entry = found.get(key)
      if (entry === undefined) return undefined
      if (entry.until > now) return entry.value
      found.delete(key)
      return undefined
    },
    /** What `remember` needs to know whether a `forget` came after the look-up started. */
    generation: (): number => generation,
    /** Remembers what a look-up that started at `since` (a generation) found, unless a `forget` came since. */
    remember: (key: string, value: A, now: number, since: number): void => {
      if (since !== generation) return
      found.delete(key)
      for (const [old, entry] of found) {
        if (entry.until > now && found.size < most) break
        found.delete(old)
      }
      found.set(key, { value, until: now + ttlMs })
    },
    /** Forgets everything: the next look-up of each key asks the store. */
    forget,
    /** Runs a change of something remembered, then forgets everything, even if the change fails or is interrupted. */
    changing: <B, E, R>(change: Effect.Effect<B, E, R>): Effect.Effect<B, E, R> => Effect.ensuring(change, Effect.sync(forget))
  }
}
