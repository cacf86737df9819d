import { Effect } from "effect"
import { QueueDepths } from "../../ports/QueueDepths.js"
import type { MemoryState } from "./MemoryState.js"

/** QueueDepths over the in-memory state. */
export const makeMemoryQueueDepths = (state: MemoryState) =>
  QueueDepths.of({
    read: () =>
      Effect.sync(() => {
        const { jobs, sends, subscriberImports, webhookDeliveries } = state.tables
        const pendingSends = { campaign: 0, transactional: 0, automation: 0 }
        for (const { send } of sends.values()) {
          if (send.sentAt !== null || send.failedAt !== null) continue
          if (send.campaignId !== null) pendingSends.campaign++
          else if (send.transactionalMailId !== null) pendingSends.transactional++
          else if (send.automationMailId !== null) pendingSends.automation++
        }
        const imports = [...subscriberImports.values()]
        return {
          pendingSends,
          pendingJobs: [...jobs.values()].filter((job) => job.finishedAt === null && job.failedAt === null).length,
          imports: {
            queued: imports.filter((i) => i.status === "pending").length,
            running: imports.filter((i) => i.status === "importing").length
          },
          pendingWebhookDeliveries: [...webhookDeliveries.values()].filter((row) => row.delivery.status === "pending").length
        }
      })
  })
