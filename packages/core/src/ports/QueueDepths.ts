import { Context, type Effect } from "effect"

/** How much work waits in the durable queues right now. */
export interface QueueDepth {
  /** Sends neither sent nor failed (waiting, claimed or deferred for a retry), by what they deliver. */
  readonly pendingSends: { readonly campaign: number; readonly transactional: number; readonly automation: number }
  /** Background jobs (confirmation and test mails) neither finished nor failed. */
  readonly pendingJobs: number
  /** Subscriber imports started and waiting for a worker (`queued`) or being imported (`running`). */
  readonly imports: { readonly queued: number; readonly running: number }
  /** Webhook deliveries waiting for their first attempt or a retry. */
  readonly pendingWebhookDeliveries: number
}

/** Reads the depth of every durable queue at once (the server's queue gauges, read when metrics are scraped). */
export class QueueDepths extends Context.Tag("@mailroom/QueueDepths")<QueueDepths, {
  readonly read: () => Effect.Effect<QueueDepth>
}>() {}
