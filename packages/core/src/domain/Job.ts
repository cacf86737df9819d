import { Schema } from "effect"
import { JobId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** A durable unit of background work (e.g. one confirmation mail); claimed under a lease, retried with backoff. */
export class Job extends Schema.Class<Job>("Job")({
  id: JobId,
  kind: Schema.String,
  payload: Schema.Unknown,
  /** How many times the job has been claimed. */
  attempts: Schema.Int,
  runAt: Timestamp,
  lockedUntil: Schema.NullOr(Timestamp),
  lastError: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Timestamp),
  failedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp
}) {}

/** Delay before attempt `attempts + 1` after a failure: 5 s doubling per attempt, at most one hour. */
export const retryDelayMillis = (attempts: number): number => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000)

/** Attempts after which a failing job is given up (about a day of retries with the backoff above). */
export const MAX_JOB_ATTEMPTS = 30
