import { Context, Duration } from "effect"

/** Tuning of webhook senders: claims, requests in flight and how long a claim stays reserved. */
export class WebhookOptions extends Context.Reference<WebhookOptions>()("@mailroom/WebhookOptions", {
  defaultValue: () => ({
    /** Deliveries claimed, and requests in flight, at once per sender loop (the crash bound: repeats after a kill). */
    concurrency: 64,
    /** Deliveries recorded together as soon as they are all answered (smaller: fewer repeats after a crash). */
    recordGroup: 32,
    /** Sender loops per process (a slow endpoint holds one loop's claims, not the others; only one polls when idle). */
    loops: 4,
    /** How long a claim stays reserved: longer than a request's timeout; after a crash deliveries wait this long. */
    lease: Duration.seconds(30),
    /** Pause between polls when nothing is due. */
    pollInterval: Duration.millis(100),
    /**
     * Most deliveries dispatched and sent per second and process while a campaign is sending (0: no limit). Mail goes
     * first: on a small machine a webhook per mail would otherwise take a third of the send rate or more; the backlog
     * follows at full speed once the campaign is done.
     */
    ratePerSecondWhileSending: 100
  })
}) {}
