/**
 * How a queue of sends (here transactional mails) polls while idle: each empty claim doubles the wait up to the
 * slowest idle pace, and a send queued in this process is still delivered at once.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  Mailroom,
  SendTransactionalMailInput,
  TransactionalDelivery,
  TransactionalMailRepository,
  TransactionalMails
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Duration, Effect, Fiber, Layer, Option, Schema, TestClock } from "effect"
import { noCsv } from "./noCsv.js"

/** Test-clock times of the claims made so far. */
const claims: Array<number> = []

/** The in-memory repository, with each claim's time noted. */
const countingClaims = Layer.effect(
  TransactionalMailRepository,
  Effect.map(TransactionalMailRepository, (repository) => ({
    ...repository,
    claim: (options: Parameters<typeof repository.claim>[0]) =>
      Effect.zipRight(Effect.flatMap(TestClock.currentTimeMillis, (at) => Effect.sync(() => claims.push(at))), repository.claim(options))
  }))
).pipe(Layer.provideMerge(MemoryStorage))

const layer = Mailroom.pipe(Layer.provideMerge(MemoryMailer), Layer.provide(countingClaims), Layer.provide(noCsv))

describe("QueueDelivery", () => {
  it.effect("an idle queue slows its claims to one every 2 s, and a send queued here is delivered at once", () =>
    Effect.gen(function*() {
      claims.length = 0
      const delivery = yield* Effect.fork(Effect.flatMap(TransactionalDelivery, (d) => d.run))
      yield* TestClock.adjust(Duration.seconds(20))
      // 250 ms, then 500, 1,000 and 2,000 between claims (each plus the 20 ms a woken pump gathers): not 80 claims
      const gaps = claims.slice(1).map((at, i) => at - claims[i]!)
      expect(gaps.slice(0, 5)).toEqual([270, 520, 1_020, 2_020, 2_020])
      expect(claims.length).toBeLessThan(14)

      const mails = yield* TransactionalMails
      const input = yield* Schema.decodeUnknown(SendTransactionalMailInput)({ from: "a@example.com", to: "b@example.com", subject: "Hi", html: "<p>Hi</p>" })
      const uuid = Option.getOrThrow(yield* mails.send(input))
      const status = Effect.map(mails.get(uuid), (mail) => mail.status)
      // 50 ms of the queue's time at most, a millisecond at a time, each with real time for the mail's rendering
      for (let waited = 0; waited < 50 && (yield* status) !== "sent"; waited++) {
        yield* TestClock.adjust(Duration.millis(1))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
      }
      expect((yield* MemoryMailbox.pipe(Effect.flatMap((mailbox) => mailbox.sent))).length).toBe(1)
      expect((yield* mails.get(uuid)).status).toBe("sent")
      yield* Fiber.interrupt(delivery)
    }).pipe(Effect.provide(layer)))
})
