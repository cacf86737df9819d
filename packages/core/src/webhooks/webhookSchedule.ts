import { Duration } from "effect"

/**
 * The pause before each retry, after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (the Standard
 * Webhooks schedule; about 27.5 hours in all), then the delivery fails.
 */
export const RETRY_DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(10)
]

/** How long a webhook may fail without a success before it is disabled. */
export const DISABLE_AFTER = Duration.days(3)

/** When to try again after `attempts` failed attempts; null when the schedule is over. */
export const nextAttemptAt = (attempts: number, at: Date): Date | null => {
  const delay = RETRY_DELAYS[attempts - 1]
  return delay === undefined ? null : new Date(at.getTime() + Duration.toMillis(delay))
}
