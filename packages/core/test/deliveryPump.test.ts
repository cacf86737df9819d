import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option } from "effect"
import { pump, type PumpOptions } from "../src/usecases/deliveryPump.js"

/** Options of a test source. */
interface SourceOptions {
  readonly total: number
  /** Milliseconds a record takes. */
  readonly recordDelay?: number
  /** Milliseconds a claim takes. */
  readonly claimDelay?: number
  /** Milliseconds a delivery takes (default `item % 3`). */
  readonly deliverDelay?: (item: number) => number
}

/** A source of `total` numbered items, with counters of everything the pump did with them. */
const source = ({ claimDelay = 1, deliverDelay = (item) => item % 3, recordDelay = 0, total }: SourceOptions) => {
  let given = 0
  let claiming = 0
  let unrecorded = 0
  const seen = {
    delivered: new Map<number, number>(),
    started: 0,
    groups: [] as Array<ReadonlyArray<number>>,
    released: [] as Array<number>,
    renewed: [] as Array<ReadonlyArray<number>>,
    rooms: [] as Array<number>,
    overlappingClaims: 0,
    claims: 0,
    mostUnrecorded: 0,
    /** Items claimed and neither delivered nor released, at most (what the process holds beyond the in-flight ones). */
    mostWaiting: 0,
    deliveredAfterStop: 0,
    stopped: false
  }
  const waiting = () => given - seen.started - seen.released.length
  const claim = (room: number) =>
    Effect.gen(function*() {
      claiming++
      seen.claims++
      seen.rooms.push(room)
      if (claiming > 1) seen.overlappingClaims++
      yield* Effect.sleep(`${claimDelay} millis`)
      claiming--
      if (given >= total) return Option.none<ReadonlyArray<number>>()
      const items = Array.from({ length: Math.min(room, total - given) }, (_, i) => given + i)
      given += items.length
      seen.mostWaiting = Math.max(seen.mostWaiting, waiting())
      return Option.some(items)
    })
  const deliver = (item: number) =>
    Effect.gen(function*() {
      if (seen.stopped) seen.deliveredAfterStop++
      seen.started++
      seen.mostUnrecorded = Math.max(seen.mostUnrecorded, ++unrecorded)
      yield* Effect.sleep(`${deliverDelay(item)} millis`)
      seen.delivered.set(item, (seen.delivered.get(item) ?? 0) + 1)
      return item * 10
    })
  const write = (outcomes: ReadonlyArray<number>) =>
    Effect.sync(() => {
      unrecorded -= outcomes.length
      seen.groups.push(outcomes)
    })
  const record = (outcomes: ReadonlyArray<number>) =>
    recordDelay === 0 ? write(outcomes) : Effect.zipRight(Effect.sleep(`${recordDelay} millis`), write(outcomes))
  const options: PumpOptions<number, number> = {
    concurrency: 8,
    batchSize: 20,
    claim,
    deliver,
    record,
    recordLinger: "1 millis",
    renew: (items) => Effect.sync(() => void seen.renewed.push([...items])),
    renewEvery: "1 hour",
    release: (items) => Effect.sync(() => void seen.released.push(...items)),
    stopped: () => seen.stopped,
    watch: Effect.succeed(false),
    watchEvery: "10 millis"
  }
  return { options, seen, given: () => given }
}

const recordedOutcomes = (seen: { readonly groups: ReadonlyArray<ReadonlyArray<number>> }) => seen.groups.flat().sort((a, b) => a - b)

describe("pump", () => {
  it.live("delivers every claimed item exactly once and records every outcome, in groups", () =>
    Effect.gen(function*() {
      const { options, seen } = source({ total: 1_000 })
      const result = yield* pump({ ...options, concurrency: 16, batchSize: 50 })
      expect(result).toEqual({ recorded: 1_000, exhausted: true })
      expect(seen.delivered.size).toBe(1_000)
      expect([...seen.delivered.values()].every((times) => times === 1)).toBe(true)
      expect(recordedOutcomes(seen)).toEqual(Array.from({ length: 1_000 }, (_, i) => i * 10))
      expect(seen.groups.length).toBeLessThan(1_000)
      expect(seen.released).toEqual([])
    }))

  it.live("runs one claim at a time, never holds more than a batch waiting, and asks only for the room left", () =>
    Effect.gen(function*() {
      const { options, seen } = source({ total: 600 })
      yield* pump({ ...options, concurrency: 8, batchSize: 40 })
      expect(seen.overlappingClaims).toBe(0)
      expect(seen.mostWaiting).toBeLessThanOrEqual(40)
      expect(seen.rooms.every((room) => room >= 20 && room <= 40)).toBe(true)
      expect(seen.delivered.size).toBe(600)
    }))

  it.live("keeps at most `concurrency` items delivered or in delivery without their outcome recorded, with a slow database", () =>
    Effect.gen(function*() {
      const { options, seen } = source({ total: 400, recordDelay: 15 })
      expect((yield* pump({ ...options, concurrency: 8, batchSize: 20 })).recorded).toBe(400)
      expect(seen.mostUnrecorded).toBeLessThanOrEqual(8)
      expect(seen.mostUnrecorded).toBeGreaterThan(1)
      expect(recordedOutcomes(seen)).toHaveLength(400)
    }))

  it.live("does nothing and records nothing when the first claim finds no work", () =>
    Effect.gen(function*() {
      const { options, seen } = source({ total: 0 })
      expect(yield* pump(options)).toEqual({ recorded: 0, exhausted: true })
      expect(seen.groups).toEqual([])
      expect(seen.claims).toBe(1)
    }))

  it.live("a stop starts no new item, releases the waiting ones at once and records what was delivered", () =>
    Effect.gen(function*() {
      const { given, options, seen } = source({ total: 10_000, deliverDelay: () => 2 })
      const fiber = yield* Effect.fork(pump(options))
      yield* Effect.sleep("30 millis")
      seen.stopped = true
      const result = yield* Fiber.join(fiber)
      expect(result.exhausted).toBe(false)
      expect(seen.deliveredAfterStop).toBe(0)
      expect(seen.delivered.size + seen.released.length).toBe(given())
      expect(result.recorded).toBe(seen.delivered.size)
      expect(recordedOutcomes(seen)).toEqual([...seen.delivered.keys()].sort((a, b) => a - b).map((i) => i * 10))
    }))

  it.live("a watch that says stop ends the pump within its interval, releasing what it holds", () =>
    Effect.gen(function*() {
      let stop = false
      const { given, options, seen } = source({ total: 100_000, deliverDelay: () => 1 })
      const fiber = yield* Effect.fork(pump({ ...options, watch: Effect.sync(() => stop), watchEvery: "5 millis" }))
      yield* Effect.sleep("30 millis")
      stop = true
      const started = Date.now()
      yield* Fiber.join(fiber)
      expect(Date.now() - started).toBeLessThan(200)
      expect(seen.delivered.size).toBeLessThan(100_000)
      expect(seen.delivered.size + seen.released.length).toBe(given())
    }))

  it.live("a claim under way when the pump stops is awaited and its items released: nothing stays held", () =>
    Effect.gen(function*() {
      const { given, options, seen } = source({ total: 10_000, claimDelay: 40, deliverDelay: () => 0 })
      const fiber = yield* Effect.fork(pump(options))
      yield* Effect.sleep("60 millis")
      seen.stopped = true
      yield* Fiber.join(fiber)
      expect(seen.claims).toBeGreaterThan(1)
      expect(seen.delivered.size + seen.released.length).toBe(given())
      expect(new Set(seen.released).size).toBe(seen.released.length)
    }))

  it.live("renews the leases of everything it holds: waiting, in delivery and unrecorded", () =>
    Effect.gen(function*() {
      const { options, seen } = source({ total: 200, deliverDelay: () => 5, recordDelay: 5 })
      yield* pump({ ...options, renewEvery: "5 millis", watchEvery: "5 millis" })
      expect(seen.renewed.length).toBeGreaterThan(3)
      expect(seen.renewed.every((held) => held.length <= 20 + 8 && new Set(held).size === held.length)).toBe(true)
      expect(seen.renewed.some((held) => held.length > 8)).toBe(true)
    }))

  it.live("interrupted, it still records every outcome it delivered and releases the rest", () =>
    Effect.gen(function*() {
      const { given, options, seen } = source({ total: 100_000 })
      const fiber = yield* Effect.fork(pump({ ...options, concurrency: 16, batchSize: 100 }))
      yield* Effect.sleep("60 millis")
      yield* Fiber.interrupt(fiber)
      expect(seen.delivered.size).toBeGreaterThan(0)
      expect(seen.delivered.size).toBeLessThan(100_000)
      expect(recordedOutcomes(seen)).toEqual([...seen.delivered.keys()].sort((a, b) => a - b).map((i) => i * 10))
      // items being delivered when interrupted are neither delivered nor released: at most `concurrency` of them
      expect(given() - seen.delivered.size - seen.released.length).toBeLessThanOrEqual(16)
    }))
})
