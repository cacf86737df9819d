import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { JobId } from "../../domain/Ids.js"
import type { Job } from "../../domain/Job.js"
import { JobQueue } from "../../ports/JobQueue.js"
import { aJob, at, type MakeStorage } from "./fixtures.js"

const kinds = (jobs: ReadonlyArray<Job>) => jobs.map((job) => job.kind)

/** JobQueue conformance: due jobs are claimed under leases, then completed, retried or failed. */
export const jobQueueContract = (makeStorage: MakeStorage) =>
  describe("JobQueue", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, JobQueue>) => Effect.provide(effect, makeStorage())
    const claim = (now: number, leaseUntil: number, limit = 10) =>
      Effect.flatMap(JobQueue, (q) => q.claim({ now: at(now), leaseUntil: at(leaseUntil), limit }))
    const found = (id: JobId) => Effect.flatMap(JobQueue, (q) => Effect.map(q.findById(id), Option.getOrThrow))

    it.effect("enqueues a pending job with its payload, not yet attempted", () =>
      run(Effect.gen(function*() {
        const queue = yield* JobQueue
        const payload = { subscriberId: 7, to: ["a@example.com"], nested: { ok: true, none: null }, text: "Grüße 👋" }
        const job = yield* queue.enqueue(aJob({ kind: "confirmation-mail", payload, runAt: at(10) }))
        expect(job.id).toBeGreaterThan(0)
        expect(job).toMatchObject({
          kind: "confirmation-mail",
          payload,
          attempts: 0,
          lockedUntil: null,
          lastError: null,
          finishedAt: null,
          failedAt: null
        })
        expect(job.runAt).toEqual(at(10))
        expect(Option.getOrThrow(yield* queue.findById(job.id))).toEqual(job)
        expect(Option.isNone(yield* queue.findById(999 as JobId))).toBe(true)
        expect(yield* queue.pendingCount()).toBe(1)
        const other = yield* queue.enqueue(aJob({ payload: "plain" }))
        expect(other.id).toBeGreaterThan(job.id)
        expect(other.payload).toBe("plain")
        expect(yield* queue.pendingCount()).toBe(2)
      })))

    it.effect("claims only due jobs, earliest first, up to the limit, counting an attempt and leasing each", () =>
      run(Effect.gen(function*() {
        const queue = yield* JobQueue
        yield* queue.enqueue(aJob({ kind: "b", runAt: at(20) }))
        const a = yield* queue.enqueue(aJob({ kind: "a", runAt: at(10) }))
        yield* queue.enqueue(aJob({ kind: "c", runAt: at(30) }))
        yield* queue.enqueue(aJob({ kind: "later", runAt: at(100) }))

        expect(yield* claim(5, 65)).toEqual([])
        const first = yield* claim(50, 110, 2)
        expect(kinds(first)).toEqual(["a", "b"])
        for (const job of first) {
          expect(job.attempts).toBe(1)
          expect(job.lockedUntil).toEqual(at(110))
        }
        expect(yield* found(a.id)).toEqual(first[0])
        expect(kinds(yield* claim(50, 110))).toEqual(["c"])
        expect(yield* claim(60, 120)).toEqual([])
        expect(yield* claim(105, 150, 0)).toEqual([])
        expect(yield* queue.pendingCount()).toBe(4)
      })))

    it.effect("claims a leased job again only once its lease has run out", () =>
      run(Effect.gen(function*() {
        const queue = yield* JobQueue
        const job = yield* queue.enqueue(aJob())
        expect((yield* claim(1, 61)).map((j) => j.id)).toEqual([job.id])
        expect(yield* claim(30, 90)).toEqual([])
        expect(yield* claim(59, 119)).toEqual([])
        const again = yield* claim(62, 122)
        expect(again.map((j) => j.id)).toEqual([job.id])
        expect(again[0]).toMatchObject({ attempts: 2 })
        expect(again[0]?.lockedUntil).toEqual(at(122))
        expect(yield* claim(100, 160)).toEqual([])
      })))

    it.effect("completes and fails jobs for good", () =>
      run(Effect.gen(function*() {
        const queue = yield* JobQueue
        const done = yield* queue.enqueue(aJob({ kind: "done" }))
        const failed = yield* queue.enqueue(aJob({ kind: "failed" }))
        const open = yield* queue.enqueue(aJob({ kind: "open" }))
        const unclaimed = yield* queue.enqueue(aJob({ kind: "unclaimed", runAt: at(500) }))
        expect(kinds(yield* claim(1, 61))).toEqual(["done", "failed", "open"])

        yield* queue.complete(done.id, at(5))
        yield* queue.fail(failed.id, at(6), "mailbox unavailable")
        yield* queue.complete(unclaimed.id, at(7))
        expect(yield* queue.pendingCount()).toBe(1)
        const completed = yield* found(done.id)
        expect(completed.finishedAt).toEqual(at(5))
        expect(completed).toMatchObject({ lockedUntil: null, failedAt: null, lastError: null, attempts: 1 })
        const given = yield* found(failed.id)
        expect(given.failedAt).toEqual(at(6))
        expect(given).toMatchObject({ lockedUntil: null, finishedAt: null, lastError: "mailbox unavailable", attempts: 1 })
        expect((yield* found(unclaimed.id)).finishedAt).toEqual(at(7))

        expect((yield* claim(1000, 1060)).map((j) => j.id)).toEqual([open.id])
        yield* queue.complete(open.id, at(1001))
        expect(yield* claim(5000, 5060)).toEqual([])
        expect(yield* queue.pendingCount()).toBe(0)
      })))

    it.effect("retries a job at a later time, releasing its lease and keeping the error", () =>
      run(Effect.gen(function*() {
        const queue = yield* JobQueue
        const job = yield* queue.enqueue(aJob())
        yield* claim(1, 61)
        yield* queue.retry(job.id, at(30), "timeout")
        const waiting = yield* found(job.id)
        expect(waiting.runAt).toEqual(at(30))
        expect(waiting).toMatchObject({ attempts: 1, lockedUntil: null, lastError: "timeout", finishedAt: null, failedAt: null })
        expect(yield* queue.pendingCount()).toBe(1)

        expect(yield* claim(10, 70)).toEqual([])
        const again = yield* claim(30, 90)
        expect(again.map((j) => j.id)).toEqual([job.id])
        expect(again[0]).toMatchObject({ attempts: 2, lastError: "timeout" })
        yield* queue.complete(job.id, at(31))
        expect(yield* queue.pendingCount()).toBe(0)
        expect(yield* claim(1000, 1060)).toEqual([])
      })))
  })
