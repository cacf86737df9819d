import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { newUuid } from "../../domain/Ids.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { WebhookCollection, WebhookDeliveryCollection } from "../../webhooks/WebhookCollections.js"
import { WebhookDeliveryRepository } from "../../webhooks/WebhookDeliveryRepository.js"
import type { WebhookDeliveryUuid, WebhookId, WebhookUuid } from "../../webhooks/WebhookIds.js"
import { type NewWebhook, WebhookRepository } from "../../webhooks/WebhookRepository.js"
import { at, type MakeStorage } from "./fixtures.js"

const aWebhook = (overrides: Partial<NewWebhook> = {}): NewWebhook => ({
  uuid: newUuid() as WebhookUuid,
  name: "hooks.example.com",
  url: "https://hooks.example.com/in",
  events: ["subscriber.created", "mail.sent"],
  emailListIds: [3, 5],
  secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2Vj",
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const delivery = (webhookId: WebhookId, eventId: number, seconds = eventId) => ({
  uuid: newUuid() as WebhookDeliveryUuid,
  webhookId,
  eventId,
  eventType: "mail.sent" as const,
  payload: `{"id":"evt_${eventId}"}`,
  at: at(seconds)
})

/** Webhook and delivery storage: round trips, the dispatcher's idempotent insert, claims under a lease, the log. */
export const webhookContract = (makeStorage: MakeStorage) =>
  describe("WebhookRepository and WebhookDeliveryRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage())

    it.effect("stores webhooks with their filters, changes them, lists the enabled ones and deletes them", () =>
      run(Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const one = yield* repo.insert(aWebhook())
        const all = yield* repo.insert(aWebhook({ name: "all", events: null, emailListIds: null }))
        expect(Option.getOrThrow(yield* repo.findByUuid(one.uuid))).toEqual(one)
        expect(one).toMatchObject({ events: ["subscriber.created", "mail.sent"], emailListIds: [3, 5], enabled: true })
        expect(all).toMatchObject({ events: null, emailListIds: null })
        const off = Option.getOrThrow(yield* repo.update(one.id, { enabled: false, disabledReason: "failing", failingSince: at(5), updatedAt: at(9) }))
        expect(off).toMatchObject({ enabled: false, disabledReason: "failing", failingSince: at(5), updatedAt: at(9), url: one.url })
        expect((yield* repo.enabled).map((w) => w.name)).toEqual(["all"])
        const query = yield* makeCollectionQuery(WebhookCollection, { filters: { enabled: "false" } })
        expect((yield* repo.list(query)).items.map((w) => w.id)).toEqual([one.id])
        const deliveries = yield* WebhookDeliveryRepository
        yield* deliveries.insert([delivery(one.id, 1)])
        expect(yield* repo.delete(one.id)).toBe(true)
        expect(Option.isNone(yield* repo.findById(one.id))).toBe(true)
        const log = yield* makeCollectionQuery(WebhookDeliveryCollection, {})
        expect((yield* deliveries.list(one.id, log)).total).toBe(0)
      })))

    it.effect("creates one delivery per webhook and event, claims due ones of enabled webhooks under a lease", () =>
      run(Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const deliveries = yield* WebhookDeliveryRepository
        const hook = yield* repo.insert(aWebhook())
        const off = yield* repo.insert(aWebhook({ enabled: false }))
        expect(yield* deliveries.insert([delivery(hook.id, 1), delivery(hook.id, 2), delivery(off.id, 1)])).toBe(3)
        expect(yield* deliveries.insert([delivery(hook.id, 2), delivery(hook.id, 3, 100)])).toBe(1)
        const claimed = yield* deliveries.claim({ now: at(10), leaseUntil: at(70), limit: 10, owner: "a" })
        expect(claimed.map((c) => c.eventId)).toEqual([1, 2])
        expect(claimed[0]).toMatchObject({ url: hook.url, secret: hook.secret, attempts: 0, payload: `{"id":"evt_1"}` })
        expect(yield* deliveries.claim({ now: at(20), leaseUntil: at(80), limit: 10, owner: "b" })).toEqual([])
        expect((yield* deliveries.claim({ now: at(71), leaseUntil: at(90), limit: 1, owner: "b" })).map((c) => c.eventId)).toEqual([1])
      })))

    it.effect("records attempts: delivered, pending again at the retry time, or failed; a manual retry makes it due", () =>
      run(Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const deliveries = yield* WebhookDeliveryRepository
        const hook = yield* repo.insert(aWebhook())
        yield* deliveries.insert([delivery(hook.id, 1), delivery(hook.id, 2), delivery(hook.id, 3)])
        const [a, b, c] = yield* deliveries.claim({ now: at(10), leaseUntil: at(70), limit: 10, owner: "a" })
        const base = { responseBody: null, durationMs: 12 }
        yield* deliveries.record([
          { ...base, id: a!.id, succeeded: true, responseStatus: 204, error: null, retryAt: null },
          { ...base, id: b!.id, succeeded: false, responseStatus: 500, responseBody: "oops", error: "The endpoint answered 500.", retryAt: at(15) },
          { ...base, id: c!.id, succeeded: false, responseStatus: null, error: "timeout", retryAt: null }
        ], at(11))
        const query = yield* makeCollectionQuery(WebhookDeliveryCollection, { sort: "created_at" })
        const log = (yield* deliveries.list(hook.id, query)).items
        expect(log.map((d) => [d.eventId, d.status, d.attempts, d.responseStatus])).toEqual([
          [1, "succeeded", 1, 204],
          [2, "pending", 1, 500],
          [3, "failed", 1, null]
        ])
        expect(log[0]).toMatchObject({ deliveredAt: at(11), lastAttemptAt: at(11), durationMs: 12, nextAttemptAt: null })
        expect(log[1]).toMatchObject({ nextAttemptAt: at(15), responseBody: "oops", error: "The endpoint answered 500.", deliveredAt: null })
        expect((yield* deliveries.claim({ now: at(14), leaseUntil: at(70), limit: 10, owner: "a" }))).toEqual([])
        expect((yield* deliveries.claim({ now: at(15), leaseUntil: at(70), limit: 10, owner: "a" })).map((d) => d.eventId)).toEqual([2])
        const retried = Option.getOrThrow(yield* deliveries.retry(c!.id, at(20)))
        expect(retried).toMatchObject({ status: "pending", nextAttemptAt: at(20), attempts: 1 })
        expect(Option.getOrThrow(yield* deliveries.findByUuid(hook.id, retried.uuid)).status).toBe("pending")
        expect((yield* deliveries.claim({ now: at(20), leaseUntil: at(70), limit: 10, owner: "a" })).map((d) => d.eventId)).toEqual([3])
        const failed = yield* makeCollectionQuery(WebhookDeliveryCollection, { filters: { status: "succeeded" } })
        expect((yield* deliveries.list(hook.id, failed)).items.map((d) => d.eventId)).toEqual([1])
      })))
  })
