import { SqlClient } from "@effect/sql"
import { QueueDepths } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** The counts QueueDepths reads, one column each (names as the client returns them, snake_case turned to camelCase). */
interface DepthRow {
  readonly campaignSends: number | string
  readonly transactionalSends: number | string
  readonly automationSends: number | string
  readonly jobs: number | string
  readonly queuedImports: number | string
  readonly runningImports: number | string
  readonly webhookDeliveries: number | string
}

/**
 * QueueDepths over SqlClient: one statement of counts, each over a partial index of its queue's waiting rows
 * (sends_pending, sends_transactional_pending, sends_automation_pending, jobs_due, subscriber_imports_waiting,
 * webhook_deliveries_due), so a scrape stays cheap however many rows are done.
 */
export const SqlQueueDepths = Layer.effect(
  QueueDepths,
  Effect.map(SqlClient.SqlClient, (sql) =>
    QueueDepths.of({
      read: () =>
        sql<DepthRow>`SELECT
          (SELECT count(*) FROM sends WHERE campaign_id IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL) AS campaign_sends,
          (SELECT count(*) FROM sends WHERE transactional_mail_id IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL) AS transactional_sends,
          (SELECT count(*) FROM sends WHERE automation_mail_id IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL) AS automation_sends,
          (SELECT count(*) FROM jobs WHERE finished_at IS NULL AND failed_at IS NULL) AS jobs,
          (SELECT count(*) FROM subscriber_imports WHERE status = 'pending') AS queued_imports,
          (SELECT count(*) FROM subscriber_imports WHERE status = 'importing') AS running_imports,
          (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS webhook_deliveries`.pipe(
          Effect.map(([row]) => ({
            pendingSends: {
              campaign: Number(row?.campaignSends ?? 0),
              transactional: Number(row?.transactionalSends ?? 0),
              automation: Number(row?.automationSends ?? 0)
            },
            pendingJobs: Number(row?.jobs ?? 0),
            imports: { queued: Number(row?.queuedImports ?? 0), running: Number(row?.runningImports ?? 0) },
            pendingWebhookDeliveries: Number(row?.webhookDeliveries ?? 0)
          })),
          Effect.orDie
        )
    }))
)
