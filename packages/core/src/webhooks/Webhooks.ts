import { Effect, Option } from "effect"
import { isUuid, newUuid } from "../domain/Ids.js"
import type { EventType } from "../events/EventType.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { findByRef, orNotFound, parseUuid } from "../usecases/lookup.js"
import { now } from "../usecases/now.js"
import type { Webhook } from "./Webhook.js"
import type { WebhookDeliveryQuery, WebhookQuery } from "./WebhookCollections.js"
import { WebhookDeliveryRepository } from "./WebhookDeliveryRepository.js"
import type { WebhookDeliveryUuid, WebhookUuid } from "./WebhookIds.js"
import type { WebhookInput, WebhookUpdateInput } from "./WebhookInput.js"
import { WebhookRepository } from "./WebhookRepository.js"
import { newWebhookSecret } from "./webhookSecret.js"

/** A webhook as a write answers it: its secret is shown when it was generated or changed by this write. */
export interface WrittenWebhook {
  readonly webhook: Webhook
  readonly emailListUuids: ReadonlyArray<string> | null
  readonly revealSecret: boolean
}

/** The kinds a webhook listens to: null for every kind (absent, null, or a list with "*"). */
const eventKinds = (events: ReadonlyArray<string> | null | undefined): ReadonlyArray<EventType> | null =>
  events === null || events === undefined || events.includes("*") ? null : [...new Set(events as ReadonlyArray<EventType>)]

/** Outgoing webhooks: create, list, change, delete; their deliveries and a manual retry. */
export class Webhooks extends Effect.Service<Webhooks>()("@mailroom/Webhooks", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhookRepository
    const deliveries = yield* WebhookDeliveryRepository
    const lists = yield* EmailListRepository
    const { withTransaction } = yield* Transactor

    const find = (ref: string) => findByRef("Webhook", ref, repo.findByUuid, repo.findById)

    /** List ids for the given uuids; a 422 naming the first that is not a list. */
    const listIds = (uuids: ReadonlyArray<string> | null | undefined) =>
      Effect.gen(function*() {
        if (uuids === null || uuids === undefined) return null
        const ids: Array<number> = []
        for (const [index, uuid] of uuids.entries()) {
          const list = isUuid(uuid.trim()) ? yield* lists.findByUuid(uuid.trim().toLowerCase() as never) : Option.none()
          if (Option.isNone(list)) return yield* ValidationError.field(`email_list_uuids.${index}`, "The selected email list is invalid.")
          ids.push(list.value.id)
        }
        return [...new Set(ids)]
      })

    /** The uuids of the webhook's lists (null: every list). */
    const listUuids = (webhook: Webhook) =>
      webhook.emailListIds === null ? Effect.succeed(null) : Effect.forEach(webhook.emailListIds, (id) =>
        Effect.map(lists.findById(id as never), (list) => Option.match(list, { onNone: () => [], onSome: (l) => [l.uuid as string] })))
        .pipe(Effect.map((found) => found.flat()))

    const written = (webhook: Webhook, revealSecret: boolean) =>
      Effect.map(listUuids(webhook), (emailListUuids): WrittenWebhook => ({ webhook, emailListUuids, revealSecret }))

    const create = Effect.fn("Webhooks.create")(function*(input: WebhookInput) {
      const emailListIds = yield* listIds(input.emailListUuids)
      const at = yield* now
      const webhook = yield* repo.insert({
        uuid: newUuid() as WebhookUuid,
        name: input.name?.trim() || new URL(input.url.trim()).host,
        url: input.url.trim(),
        events: eventKinds(input.events),
        emailListIds,
        secret: input.secret ?? newWebhookSecret(),
        enabled: input.enabled ?? true,
        disabledReason: null,
        failingSince: null,
        createdAt: at,
        updatedAt: at
      })
      return yield* written(webhook, true)
    })

    const update = Effect.fn("Webhooks.update")(function*(ref: string, input: WebhookUpdateInput) {
      const webhook = yield* find(ref)
      const emailListIds = input.emailListUuids === undefined ? webhook.emailListIds : yield* listIds(input.emailListUuids)
      const enabling = input.enabled === true && !webhook.enabled
      const saved = yield* repo.update(webhook.id, {
        ...(input.name === undefined ? {} : { name: input.name.trim() || webhook.name }),
        ...(input.url === undefined ? {} : { url: input.url.trim() }),
        ...(input.events === undefined ? {} : { events: eventKinds(input.events) }),
        emailListIds,
        ...(input.secret === undefined ? {} : { secret: input.secret }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(enabling ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: yield* now
      }).pipe(orNotFound("Webhook"))
      return yield* written(saved, input.secret !== undefined)
    })

    const get = Effect.fn("Webhooks.get")(function*(ref: string) {
      return yield* written(yield* find(ref), false)
    })

    const list = Effect.fn("Webhooks.list")(function*(query: WebhookQuery) {
      const page = yield* repo.list(query)
      return { total: page.total, items: yield* Effect.forEach(page.items, (webhook) => written(webhook, false)) }
    })

    const remove = Effect.fn("Webhooks.remove")(function*(ref: string) {
      const webhook = yield* find(ref)
      yield* withTransaction(repo.delete(webhook.id))
    })

    const listDeliveries = Effect.fn("Webhooks.listDeliveries")(function*(ref: string, query: WebhookDeliveryQuery) {
      const webhook = yield* find(ref)
      return yield* deliveries.list(webhook.id, query)
    })

    const findDelivery = (ref: string, deliveryRef: string) =>
      Effect.gen(function*() {
        const webhook = yield* find(ref)
        const uuid = parseUuid(deliveryRef)
        return yield* (Option.isNone(uuid)
          ? Effect.succeedNone
          : deliveries.findByUuid(webhook.id, uuid.value as WebhookDeliveryUuid)).pipe(orNotFound("Delivery"))
      })

    const getDelivery = Effect.fn("Webhooks.getDelivery")(function*(ref: string, deliveryRef: string) {
      return yield* findDelivery(ref, deliveryRef)
    })

    /** Sends the delivery again as soon as a sender is free (whatever its status), keeping its body and id. */
    const retryDelivery = Effect.fn("Webhooks.retryDelivery")(function*(ref: string, deliveryRef: string) {
      const delivery = yield* findDelivery(ref, deliveryRef)
      return yield* deliveries.retry(delivery.id, yield* now).pipe(orNotFound("Delivery"))
    })

    return { create, update, get, list, remove, listDeliveries, getDelivery, retryDelivery } as const
  })
}) {}
