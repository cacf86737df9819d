/**
 * What tokens and lists remember between look-ups: a change run through `changing` forgets everything once it ends,
 * whether it succeeded, failed or was interrupted, so the next look-up asks the store again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { recentlyFound } from "../src/usecases/recentlyFound.js"

/** A cache with one remembered entry, `key`, valid for 1 s from t = 0. */
const remembering = () => {
  const recent = recentlyFound<string>(1_000, 10)
  recent.remember("key", "value", 0, recent.generation())
  return recent
}

describe("recentlyFound", () => {
  it("remembers for its time only", () => {
    const recent = remembering()
    expect(recent.get("key", 999)).toBe("value")
    expect(recent.get("key", 1_000)).toBeUndefined()
  })

  it("a look-up that started before a forget does not remember what it found", () => {
    const recent = recentlyFound<string>(1_000, 10)
    const since = recent.generation()
    recent.forget()
    recent.remember("key", "stale", 0, since)
    expect(recent.get("key", 1)).toBeUndefined()
  })

  it.effect("a change that succeeds is forgotten after it, with its result", () =>
    Effect.gen(function*() {
      const recent = remembering()
      const result = yield* recent.changing(Effect.sync(() => recent.get("key", 1)))
      // still remembered while the change ran, forgotten once it ended
      expect(result).toBe("value")
      expect(recent.get("key", 1)).toBeUndefined()
    }))

  it.effect("a change that fails is forgotten too", () =>
    Effect.gen(function*() {
      const recent = remembering()
      const exit = yield* Effect.exit(recent.changing(Effect.fail("refused")))
      expect(exit).toStrictEqual(Exit.fail("refused"))
      expect(recent.get("key", 1)).toBeUndefined()
    }))

  it.effect("a change interrupted midway is forgotten too", () =>
    Effect.gen(function*() {
      const recent = remembering()
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(recent.changing(Effect.zipRight(Deferred.succeed(started, undefined), Effect.never)))
      yield* Deferred.await(started)
      expect(recent.get("key", 1)).toBe("value")
      yield* Fiber.interrupt(fiber)
      expect(recent.get("key", 1)).toBeUndefined()
    }))
})
