import { Context, type Effect, type Option } from "effect"
import type { JobId } from "../domain/Ids.js"
import type { Job } from "../domain/Job.js"

/** A job to enqueue. */
export interface NewJob {
  readonly kind: string
  readonly payload: unknown
  readonly runAt: Date
}

/**
 * The durable job table. Enqueue inside the transaction that makes the work necessary, so the work is never lost;
 * claims are leases, so a crashed worker's jobs are claimed again once the lease runs out.
 */
export class JobQueue extends Context.Tag("@mailroom/JobQueue")<JobQueue, {
  readonly enqueue: (job: NewJob) => Effect.Effect<Job>
  /** Claims up to `limit` due, unfinished, unleased jobs until `leaseUntil`, counting an attempt on each. */
  readonly claim: (options: { readonly now: Date; readonly leaseUntil: Date; readonly limit: number }) => Effect.Effect<
    ReadonlyArray<Job>
  >
  readonly complete: (id: JobId, at: Date) => Effect.Effect<void>
  /** Releases the lease and runs the job again at `runAt`. */
  readonly retry: (id: JobId, runAt: Date, error: string) => Effect.Effect<void>
  /** Gives the job up for good. */
  readonly fail: (id: JobId, at: Date, error: string) => Effect.Effect<void>
  readonly findById: (id: JobId) => Effect.Effect<Option.Option<Job>>
  /** Jobs neither finished nor failed. */
  readonly pendingCount: () => Effect.Effect<number>
}>() {}
