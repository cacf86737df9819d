import { Context, Duration } from "effect"

/** Tuning of campaign delivery: batch sizes, parallel sends, leases, polling, retries and an optional rate limit. */
export class DeliveryOptions extends Context.Reference<DeliveryOptions>()("@mailroom/DeliveryOptions", {
  defaultValue: () => ({
    /** Most claimed sends waiting per worker process (one batch beyond the mails in flight). */
    batchSize: 100,
    /** Mails handed to the transport and not yet recorded, at once per worker process (the crash bound). */
    concurrency: 64,
    /**
     * How long a claim stays reserved without renewal. It is renewed every third of it while its mails wait or are in
     * flight, so a slow MTA never lets it run out; after a crash the sends are claimed again within this time.
     */
    lease: Duration.seconds(30),
    /** Longest outcomes wait for those of half the mails in flight before they are recorded (group commit; 0: at once). */
    recordLinger: Duration.millis(10),
    /** Subscribers covered per audience-freezing statement. */
    freezeBatch: 10_000,
    /** How long one campaign is delivered before the loop looks at due and other campaigns again. */
    slice: Duration.seconds(5),
    /** Pause between polls when there is nothing to do; also how often a sending campaign's status is checked. */
    pollInterval: Duration.millis(250),
    /** Most mails per second over all worker processes (0 = no limit). */
    ratePerSecond: 0,
    /** How long a send that keeps failing temporarily (SMTP 4xx, no connection) is retried before it fails. */
    retryFor: Duration.hours(48),
    /** A campaign without progress this long says why in the log. */
    stallWarning: Duration.minutes(1),
    /** How often a sending campaign logs its progress (sent, failed, rate), besides its start and end lines. */
    progressLogEvery: Duration.seconds(10)
  })
}) {}
