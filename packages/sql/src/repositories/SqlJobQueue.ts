import { SqlClient } from "@effect/sql"
import { Job, JobQueue } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"

const JobRow = Schema.Struct({ ...Job.fields, payload: Schema.parseJson(Schema.Unknown) })
const decodeJobs = Schema.decodeUnknown(Schema.Array(Schema.transform(JobRow, Schema.typeSchema(Job), {
  strict: false,
  decode: (row) => new Job(row, true),
  encode: (job) => job
})))

/**
 * JobQueue over SqlClient. Claiming is one UPDATE of the due rows; on Postgres the candidate rows are locked with
 * `FOR UPDATE SKIP LOCKED`, so workers in several processes never claim the same job.
 */
export const SqlJobQueue = Layer.effect(
  JobQueue,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const set = (id: number, changes: Record<string, string | null>) =>
      sql`UPDATE jobs SET ${sql.update(changes)} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    return JobQueue.of({
      enqueue: (job) =>
        Effect.gen(function*() {
          const rows = yield* sql`INSERT INTO jobs ${
            sql.insert({
              kind: job.kind,
              payload: JSON.stringify(job.payload ?? null),
              attempts: 0,
              runAt: job.runAt.toISOString(),
              createdAt: job.runAt.toISOString()
            })
          } RETURNING *`
          return (yield* decodeJobs(rows))[0]!
        }).pipe(Effect.orDie),
      claim: ({ leaseUntil, limit, now }) =>
        Effect.gen(function*() {
          const at = now.toISOString()
          const lock = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
          const rows = yield* sql`UPDATE jobs SET attempts = attempts + 1, locked_until = ${leaseUntil.toISOString()}
            WHERE id IN (
              SELECT id FROM jobs
              WHERE finished_at IS NULL AND failed_at IS NULL AND run_at <= ${at}
                AND (locked_until IS NULL OR locked_until < ${at})
              ORDER BY run_at, id LIMIT ${limit} ${lock}
            ) RETURNING *`
          return [...(yield* decodeJobs(rows))].sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id)
        }).pipe(Effect.orDie),
      complete: (id, at) => set(id, { finishedAt: at.toISOString(), lockedUntil: null }),
      retry: (id, runAt, error) => set(id, { runAt: runAt.toISOString(), lockedUntil: null, lastError: error.slice(0, 2000) }),
      fail: (id, at, error) => set(id, { failedAt: at.toISOString(), lockedUntil: null, lastError: error.slice(0, 2000) }),
      findById: (id) =>
        Effect.flatMap(sql`SELECT * FROM jobs WHERE id = ${id}`, decodeJobs).pipe(
          Effect.map((jobs) => Option.fromNullable(jobs[0])),
          Effect.orDie
        ),
      pendingCount: () =>
        sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM jobs
                                        WHERE finished_at IS NULL AND failed_at IS NULL`.pipe(
          Effect.map((rows) => Number(rows[0]?.total ?? 0)),
          Effect.orDie
        )
    })
  })
)
