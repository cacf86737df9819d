import { Effect, Option } from "effect"
import type { JobId } from "../../domain/Ids.js"
import { Job } from "../../domain/Job.js"
import { JobQueue } from "../../ports/JobQueue.js"
import type { MemoryState } from "./MemoryState.js"

/** JobQueue over the in-memory state. */
export const makeMemoryJobQueue = (state: MemoryState) => {
  const rows = () => state.tables.jobs
  const change = (id: JobId, changes: Partial<Job>) =>
    Effect.sync(() => {
      const job = rows().get(id)
      if (job !== undefined) rows().set(id, new Job({ ...job, ...changes }))
    })
  return JobQueue.of({
    enqueue: (job) =>
      Effect.sync(() => {
        const row = new Job({
          ...job,
          id: state.nextId("jobs") as JobId,
          attempts: 0,
          lockedUntil: null,
          lastError: null,
          finishedAt: null,
          failedAt: null,
          createdAt: job.runAt
        })
        rows().set(row.id, row)
        return row
      }),
    claim: ({ leaseUntil, limit, now }) =>
      Effect.sync(() => {
        const due = [...rows().values()]
          .filter((job) =>
            job.finishedAt === null && job.failedAt === null && job.runAt <= now &&
            (job.lockedUntil === null || job.lockedUntil < now)
          )
          .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id)
          .slice(0, limit)
        return due.map((job) => {
          const claimed = new Job({ ...job, attempts: job.attempts + 1, lockedUntil: leaseUntil })
          rows().set(job.id, claimed)
          return claimed
        })
      }),
    complete: (id, at) => change(id, { finishedAt: at, lockedUntil: null }),
    retry: (id, runAt, error) => change(id, { runAt, lockedUntil: null, lastError: error }),
    fail: (id, at, error) => change(id, { failedAt: at, lockedUntil: null, lastError: error }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    pendingCount: () =>
      Effect.sync(() => [...rows().values()].filter((job) => job.finishedAt === null && job.failedAt === null).length)
  })
}
