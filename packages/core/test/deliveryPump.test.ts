import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option } from "effect"
import { pump } from "../src/usecases/deliveryPump.js"

/** A source of `total` numbered items handed out in batches, with counters of what the pump did with them. */
const source = (total: number, batch: number, recordDelay = 0) => {
  let given = 0
  let claiming = 0
  const seen = {
    delivered: new Map<number, number>(),
    groups: [] as Array<ReadonlyArray<number>>,
    overlappingClaims: 0,
    claims: 0,
    mostUnrecorded: 0
  }
  let unrecorded = 0
  const claim = Effect.gen(function*() {
    claiming++
    seen.claims++
    if (claiming > 1) seen.overlappingClaims++
    yield* Effect.sleep("1 millis")
    claiming--
    if (given >= total) return Option.none<ReadonlyArray<number>>()
    const items = Array.from({ length: Math.min(batch, total - given) }, (_, i) => given + i)
    given += items.length
    return Option.some(items)
  })
  const deliver = (item: number) =>
    Effect.gen(function*() {
      yield* Effect.sleep(`${item % 3} millis`)
      seen.delivered.set(item, (seen.delivered.get(item) ?? 0) + 1)
      seen.mostUnrecorded = Math.max(seen.mostUnrecorded, ++unrecorded)
      return item * 10
    })
  const write = (outcomes: ReadonlyArray<number>) =>
    Effect.sync(() => {
      unrecorded -= outcomes.length
      seen.groups.push(outcomes)
    })
  const record = (outcomes: ReadonlyArray<number>) =>
    recordDelay === 0 ? write(outcomes) : Effect.zipRight(Effect.sleep(`${recordDelay} millis`), write(outcomes))
  return { claim, deliver, record, seen }
}

describe("pump", () => {
  it.live("delivers every claimed item exactly once and records every outcome, in groups", () =>
    Effect.gen(function*() {
      const { seen, ...work } = source(1_000, 50)
      const recorded = yield* pump({ ...work, concurrency: 16, recordEvery: 50, prefetchBelow: 20 })
      expect(recorded).toBe(1_000)
      expect(seen.delivered.size).toBe(1_000)
      expect([...seen.delivered.values()].every((times) => times === 1)).toBe(true)
      const outcomes = seen.groups.flat().sort((a, b) => a - b)
      expect(outcomes).toEqual(Array.from({ length: 1_000 }, (_, i) => i * 10))
      expect(seen.groups.every((group) => group.length <= 50)).toBe(true)
    }))

  it.live("runs one claim at a time and keeps at most recordEvery + concurrency outcomes unrecorded", () =>
    Effect.gen(function*() {
      const { seen, ...work } = source(600, 40)
      yield* pump({ ...work, concurrency: 8, recordEvery: 25, prefetchBelow: 30 })
      expect(seen.overlappingClaims).toBe(0)
      expect(seen.mostUnrecorded).toBeLessThanOrEqual(25 + 8)
      // 15 batches and the claim that finds nothing; prefetching does not claim past the end
      expect(seen.claims).toBe(16)
    }))

  it.live("does nothing and records nothing when the first claim finds no work", () =>
    Effect.gen(function*() {
      const { seen, ...work } = source(0, 10)
      expect(yield* pump({ ...work, concurrency: 4, recordEvery: 10, prefetchBelow: 5 })).toBe(0)
      expect(seen.groups).toEqual([])
      expect(seen.claims).toBe(1)
    }))

  it.live("with a slow database, one group is written at a time and unrecorded outcomes stay bounded", () =>
    Effect.gen(function*() {
      const { seen, ...work } = source(800, 50, 15)
      expect(yield* pump({ ...work, concurrency: 8, recordEvery: 20, prefetchBelow: 10 })).toBe(800)
      expect(seen.mostUnrecorded).toBeLessThanOrEqual(2 * 20 + 8)
      expect(seen.groups.flat()).toHaveLength(800)
    }))

  it.live("interrupted, it still records every outcome it delivered", () =>
    Effect.gen(function*() {
      const { seen, ...work } = source(100_000, 100)
      const fiber = yield* Effect.fork(pump({ ...work, concurrency: 16, recordEvery: 50, prefetchBelow: 20 }))
      yield* Effect.sleep("60 millis")
      yield* Fiber.interrupt(fiber)
      expect(seen.delivered.size).toBeGreaterThan(0)
      expect(seen.delivered.size).toBeLessThan(100_000)
      expect(seen.groups.flat().sort((a, b) => a - b)).toEqual([...seen.delivered.keys()].sort((a, b) => a - b).map((i) => i * 10))
    }))
})
