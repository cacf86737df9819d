import { describe, expect, it } from "@effect/vitest"
import { EventOutbox, newEvent, START, Transactor } from "@mailroom/core"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { Deferred, Effect, Fiber, Option, Schedule } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const event = (n: number) => newEvent("campaign.sent", new Date(Date.UTC(2026, 0, 1, 0, 0, n)), { campaignId: n })

/**
 * Waits until `count` events can be read. An event is read once every older writing transaction on the server has
 * ended, and transaction ids are server-wide: a test file running beside this one (in its own schema) may hold the
 * events back a moment after they committed. At most 10 s.
 */
const visible = (count: number) =>
  Effect.flatMap(EventOutbox, (outbox) =>
    outbox.read(START, 10).pipe(
      Effect.filterOrFail((batch) => batch.events.length >= count),
      Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds"))),
      Effect.orDie
    ))

describe("postgres event order", () => {
  it.live("waits for a transaction still running instead of skipping its events when it commits last", () =>
    Effect.gen(function*() {
      const outbox = yield* EventOutbox
      const { withTransaction } = yield* Transactor
      const written = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      // the slow writer takes its transaction id and writes first, then waits
      const slow = yield* Effect.fork(withTransaction(Effect.gen(function*() {
        yield* outbox.append([event(1)])
        yield* Deferred.succeed(written, undefined)
        yield* Deferred.await(finish)
      })))
      yield* Deferred.await(written)
      yield* withTransaction(outbox.append([event(2)]))
      const whileRunning = Option.getOrThrow(yield* withTransaction(outbox.claim("reader", { limit: 10, start: "beginning" })))
      expect(whileRunning.events).toEqual([])
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(slow)
      yield* visible(2)
      const after = Option.getOrThrow(yield* withTransaction(outbox.claim("reader", { limit: 10, start: "beginning" })))
      expect(after.events.map((e) => e.campaignId)).toEqual([1, 2])
      expect((yield* outbox.read(START, 10)).events).toHaveLength(2)
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))))

  it.live("lets one worker at a time hold a consumer; the others skip it", () =>
    Effect.gen(function*() {
      const outbox = yield* EventOutbox
      const { withTransaction } = yield* Transactor
      yield* outbox.append([event(1)])
      yield* visible(1)
      const held = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(withTransaction(Effect.gen(function*() {
        const batch = yield* outbox.claim("shared", { limit: 10, start: "beginning" })
        yield* Deferred.succeed(held, undefined)
        yield* Deferred.await(release)
        return batch
      })))
      yield* Deferred.await(held)
      expect(Option.isNone(yield* withTransaction(outbox.claim("shared", { limit: 10, start: "beginning" })))).toBe(true)
      yield* Deferred.succeed(release, undefined)
      expect(Option.getOrThrow(yield* Fiber.join(holder)).events).toHaveLength(1)
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))))
})
