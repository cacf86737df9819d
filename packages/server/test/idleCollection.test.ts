import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { IDLE_COLLECTION, idleCollection, type IdleCollector } from "../src/idleCollection.js"

/** A collector whose event loop was as busy as `shares` says, one share per look; counts its collections. */
const scripted = (shares: ReadonlyArray<number>) => {
  let look = 0
  const state = { collections: 0 }
  const collector: IdleCollector = {
    busySinceLastLook: () => shares[look++] ?? 0,
    collect: () => {
      state.collections++
    }
  }
  return { collector, state }
}

describe("idle collection", () => {
  it.effect("collects the heap at each look that finds the process idle, and not while it is busy", () =>
    Effect.gen(function*() {
      const { collector, state } = scripted([0.01, 0.6, 0.2, 0.03, 0])
      const first = Duration.toMillis(IDLE_COLLECTION.first)
      const every = Duration.toMillis(IDLE_COLLECTION.every)
      const fiber = yield* Effect.fork(idleCollection(collector))
      yield* TestClock.adjust(first - 1)
      expect(state.collections).toBe(0)
      yield* TestClock.adjust(1)
      expect(state.collections).toBe(1)
      yield* TestClock.adjust(2 * every)
      expect(state.collections).toBe(1)
      yield* TestClock.adjust(2 * every)
      expect(state.collections).toBe(3)
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("does nothing when node does not expose gc", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(idleCollection({ busySinceLastLook: () => 0, collect: undefined }))
      yield* TestClock.adjust(Duration.minutes(5))
      expect(Option.isSome(yield* Fiber.poll(fiber))).toBe(true)
    }))
})
