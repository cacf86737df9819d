/**
 * How an idle worker polls: with a WorkSignal it slows down after empty polls (up to its slowest pace) and a commit in
 * the process ends the wait at once; without one, or without a slowest pace, it keeps its pace.
 */
import { describe, expect, it } from "@effect/vitest"
import { WorkSignal } from "@mailroom/core"
import { Duration, Effect, Fiber, Ref, TestClock } from "effect"
import { pollForever } from "../src/usecases/pollForever.js"

/** A worker that never finds work, recording the test-clock time of each poll. */
const idleWorker = (maxIdle?: Duration.DurationInput) =>
  Effect.gen(function*() {
    const polls = yield* Ref.make<ReadonlyArray<number>>([])
    const step = Effect.flatMap(TestClock.currentTimeMillis, (at) => Ref.update(polls, (all) => [...all, at])).pipe(Effect.as(0))
    const fiber = yield* Effect.fork(pollForever("test worker", step, Duration.millis(100), maxIdle))
    return { polls, fiber }
  })

describe("pollForever", () => {
  it.effect("slows down after empty polls, up to its slowest pace, and a commit wakes it at once", () =>
    Effect.gen(function*() {
      const signal = yield* WorkSignal
      const { fiber, polls } = yield* idleWorker(Duration.seconds(2))
      yield* TestClock.adjust(Duration.seconds(10))
      const times = yield* Ref.get(polls)
      // 0, 100, 300, 700, 1500, 3100, then every 2 s
      expect(times.slice(0, 8)).toEqual([0, 100, 300, 700, 1500, 3100, 5100, 7100])
      yield* signal.notify
      yield* TestClock.adjust(Duration.millis(1))
      const woken = yield* Ref.get(polls)
      expect(woken.length).toBe(times.length + 1)
      expect(woken.at(-1)).toBe(10_000)
      // after a nudge it starts again from its normal pace
      yield* TestClock.adjust(Duration.millis(100))
      expect((yield* Ref.get(polls)).at(-1)).toBe(10_100)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(WorkSignal.Default)))

  it.effect("keeps its pace without a WorkSignal (an embedding that provides none) or without a slowest pace", () =>
    Effect.gen(function*() {
      const alone = yield* idleWorker(Duration.seconds(2))
      const steady = yield* idleWorker().pipe(Effect.provide(WorkSignal.Default))
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* Ref.get(alone.polls)).length).toBe(11)
      expect((yield* Ref.get(steady.polls)).length).toBe(11)
      yield* Fiber.interrupt(alone.fiber)
      yield* Fiber.interrupt(steady.fiber)
    }))
})
