import { Context, Duration } from "effect"

/** Tuning of campaign delivery: batch sizes, parallel sends, lease, polling and an optional rate limit. */
export class DeliveryOptions extends Context.Reference<DeliveryOptions>()("@mailroom/DeliveryOptions", {
  defaultValue: () => ({
    /** Sends claimed per batch, and outcomes recorded together. */
    batchSize: 100,
    /** Mails in flight at once per worker process. */
    concurrency: 64,
    /** How long a claimed batch stays reserved for the worker that claimed it. */
    lease: Duration.minutes(2),
    /** Subscribers covered per audience-freezing statement. */
    freezeBatch: 10_000,
    /** How long one campaign is delivered before the loop looks at due and other campaigns again. */
    slice: Duration.seconds(5),
    /** Pause between polls when there is nothing to do. */
    pollInterval: Duration.millis(250),
    /** Most mails per second per worker process (0 = no limit). */
    ratePerSecond: 0,
    /** Attempts of a send that keeps failing temporarily (SMTP 4xx) before it is given up. */
    maxAttempts: 8
  })
}) {}
