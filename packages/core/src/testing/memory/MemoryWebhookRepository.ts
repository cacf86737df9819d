import { Effect, Option } from "effect"
import { Webhook } from "../../webhooks/Webhook.js"
import type { WebhookId } from "../../webhooks/WebhookIds.js"
import { WebhookRepository } from "../../webhooks/WebhookRepository.js"
import { listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** WebhookRepository over the in-memory state. */
export const makeMemoryWebhookRepository = (state: MemoryState) => {
  const rows = () => state.tables.webhooks
  const find = (predicate: (row: Webhook) => boolean) => Effect.sync(() => Option.fromNullable([...rows().values()].find(predicate)))
  return WebhookRepository.of({
    insert: (webhook) =>
      Effect.sync(() => {
        const row = new Webhook({ ...webhook, id: state.nextId("webhooks") as WebhookId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = new Webhook({ ...existing, ...changes })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => find((row) => row.id === id),
    findByUuid: (uuid) => find((row) => row.uuid === uuid),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (row) => row.id,
          sorts: { created_at: (row) => row.createdAt, name: (row) => row.name },
          filters: { enabled: (row, value) => row.enabled === /^(1|true)$/i.test(value.trim()) }
        })
      ),
    enabled: Effect.sync(() => [...rows().values()].filter((row) => row.enabled).sort((a, b) => a.id - b.id)),
    delete: (id) =>
      Effect.sync(() => {
        for (const [key, row] of state.tables.webhookDeliveries) if (row.delivery.webhookId === id) state.tables.webhookDeliveries.delete(key)
        return rows().delete(id)
      })
  })
}
