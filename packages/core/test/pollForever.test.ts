/**
 * How an idle worker polls: with a WorkSignal it slows down after empty polls (up to its slowest pace) and a commit in
 * the process ends the wait at once, and work of its topic ends even its regular pause; without one, or without a
 * slowest pace, it keeps its pace.
 */
import { describe, expect, it } from "@effect/vitest"
import { WorkSignal, type WorkTopic } from "@mailroom/core"
import { Duration, Effect, Fiber, Ref, TestClock } from "effect"
import { pollForever } from "../src/usecases/pollForever.js"

/** A worker that never finds work, recording the test-clock time of each poll. */
const idleWorker = (maxIdle?: Duration.DurationInput, topic?: WorkTopic) =>
  Effect.gen(function*() {
    const polls = yield* Ref.make<ReadonlyArray<number>>([])
    const step = Effect.flatMap(TestClock.currentTimeMillis, (at) => Ref.update(polls, (all) => [...all, at])).pipe(Effect.as(0))
    const fiber = yield* Effect.fork(pollForever("test worker", step, Duration.millis(100), maxIdle, topic))
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

  it.effect("work of its topic ends even its regular pause; a commit, or another topic's work, does not", () =>
    Effect.gen(function*() {
      const signal = yield* WorkSignal
      const { fiber, polls } = yield* idleWorker(Duration.seconds(2), "imports")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Ref.get(polls)).toEqual([0])
      // in its regular 100 ms pause: a commit and a campaign started leave it waiting
      yield* signal.notify
      yield* signal.wake("campaigns")
      yield* TestClock.adjust(Duration.millis(30))
      expect(yield* Ref.get(polls)).toEqual([0])
      yield* signal.wake("imports")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Ref.get(polls)).toEqual([0, 31])
      // a wake taken before a poll still ends the wait after it; then the regular pace again
      yield* signal.wake("imports")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Ref.get(polls)).toEqual([0, 31, 32])
      yield* TestClock.adjust(Duration.millis(100))
      expect(yield* Ref.get(polls)).toEqual([0, 31, 32, 132])
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
