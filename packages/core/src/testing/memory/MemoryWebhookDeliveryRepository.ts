import { Effect, Option } from "effect"
import { WebhookDelivery } from "../../webhooks/WebhookDelivery.js"
import { WebhookDeliveryRepository } from "../../webhooks/WebhookDeliveryRepository.js"
import type { WebhookDeliveryId } from "../../webhooks/WebhookIds.js"
import { listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** WebhookDeliveryRepository over the in-memory state. */
export const makeMemoryWebhookDeliveryRepository = (state: MemoryState) => {
  const rows = () => state.tables.webhookDeliveries
  const change = (id: number, changes: Partial<WebhookDelivery>, lease: { lockedUntil: Date | null; leaseOwner: string | null }) => {
    const row = rows().get(id)
    if (row === undefined) return Option.none<WebhookDelivery>()
    const delivery = new WebhookDelivery({ ...row.delivery, ...changes })
    rows().set(id, { delivery, ...lease })
    return Option.some(delivery)
  }
  const free = { lockedUntil: null, leaseOwner: null }
  return WebhookDeliveryRepository.of({
    insert: (deliveries) =>
      Effect.sync(() => {
        let inserted = 0
        const taken = new Set([...rows().values()].map((r) => `${r.delivery.webhookId}:${r.delivery.eventId}`))
        for (const d of deliveries) {
          if (taken.has(`${d.webhookId}:${d.eventId}`)) continue
          taken.add(`${d.webhookId}:${d.eventId}`)
          const id = state.nextId("webhookDeliveries") as WebhookDeliveryId
          rows().set(id, {
            delivery: new WebhookDelivery({
              id,
              uuid: d.uuid,
              webhookId: d.webhookId,
              eventId: d.eventId,
              eventType: d.eventType,
              payload: d.payload,
              status: "pending",
              attempts: 0,
              nextAttemptAt: d.at,
              lastAttemptAt: null,
              responseStatus: null,
              responseBody: null,
              error: null,
              durationMs: null,
              deliveredAt: null,
              createdAt: d.at,
              updatedAt: d.at
            }),
            ...free
          })
          inserted++
        }
        return inserted
      }),
    claim: ({ leaseUntil, limit, now, owner }) =>
      Effect.sync(() => {
        const due = [...rows().values()]
          .filter((r) =>
            r.delivery.status === "pending" && r.delivery.nextAttemptAt !== null && r.delivery.nextAttemptAt <= now &&
            (r.lockedUntil === null || r.lockedUntil < now) && state.tables.webhooks.get(r.delivery.webhookId)?.enabled === true
          )
          .sort((a, b) => a.delivery.nextAttemptAt!.getTime() - b.delivery.nextAttemptAt!.getTime() || a.delivery.id - b.delivery.id)
          .slice(0, limit)
        return due.map((r) => {
          rows().set(r.delivery.id, { ...r, lockedUntil: leaseUntil, leaseOwner: owner })
          const webhook = state.tables.webhooks.get(r.delivery.webhookId)!
          return {
            id: r.delivery.id,
            webhookId: r.delivery.webhookId,
            eventId: r.delivery.eventId,
            payload: r.delivery.payload,
            attempts: r.delivery.attempts,
            url: webhook.url,
            secret: webhook.secret,
            failingSince: webhook.failingSince
          }
        })
      }),
    record: (attempts, at) =>
      Effect.sync(() => {
        for (const attempt of attempts) {
          const row = rows().get(attempt.id)
          if (row === undefined) continue
          change(attempt.id, {
            status: attempt.succeeded ? "succeeded" : attempt.retryAt === null ? "failed" : "pending",
            attempts: row.delivery.attempts + 1,
            nextAttemptAt: attempt.succeeded ? null : attempt.retryAt,
            lastAttemptAt: at,
            responseStatus: attempt.responseStatus,
            responseBody: attempt.responseBody,
            error: attempt.error,
            durationMs: attempt.durationMs,
            deliveredAt: attempt.succeeded ? at : row.delivery.deliveredAt,
            updatedAt: at
          }, free)
        }
      }),
    findByUuid: (webhookId, uuid) =>
      Effect.sync(() =>
        Option.map(
          Option.fromNullable([...rows().values()].find((r) => r.delivery.webhookId === webhookId && r.delivery.uuid === uuid)),
          (r) => r.delivery
        )
      ),
    list: (webhookId, query) =>
      Effect.sync(() => {
        const page = listPage([...rows().values()].map((r) => r.delivery).filter((d) => d.webhookId === webhookId), query, {
          id: (d) => d.id,
          sorts: { created_at: (d) => d.createdAt },
          filters: {
            status: (d, value) => d.status === value.trim().toLowerCase(),
            event_type: (d, value) => d.eventType === value.trim()
          }
        })
        return page
      }),
    retry: (id, at) => Effect.sync(() => change(id, { status: "pending", nextAttemptAt: at, updatedAt: at }, free))
  })
}
