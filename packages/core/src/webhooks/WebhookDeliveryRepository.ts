import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { EventType } from "../events/EventType.js"
import type { WebhookDelivery } from "./WebhookDelivery.js"
import type { WebhookDeliveryQuery } from "./WebhookCollections.js"
import type { WebhookDeliveryId, WebhookDeliveryUuid, WebhookId } from "./WebhookIds.js"

/** A delivery to create: one event for one webhook, with its body. */
export interface NewWebhookDelivery {
  readonly uuid: WebhookDeliveryUuid
  readonly webhookId: WebhookId
  readonly eventId: number
  readonly eventType: EventType
  readonly payload: string
  readonly at: Date
}

/** A delivery claimed for an attempt, with where and how to send it. */
export interface ClaimedWebhookDelivery {
  readonly id: WebhookDeliveryId
  readonly webhookId: WebhookId
  readonly eventId: number
  readonly payload: string
  readonly attempts: number
  readonly url: string
  readonly secret: string
  /** The webhook's failing state when claimed (null: healthy). */
  readonly failingSince: Date | null
}

/** How one attempt went. */
export interface WebhookAttempt {
  readonly id: WebhookDeliveryId
  readonly succeeded: boolean
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly error: string | null
  readonly durationMs: number
  /** When to try again after a failure; null: give up (the delivery fails). */
  readonly retryAt: Date | null
}

/** Storage of webhook deliveries: created by the dispatcher, claimed under a lease by senders, kept as a log. */
export class WebhookDeliveryRepository extends Context.Tag("@mailroom/WebhookDeliveryRepository")<WebhookDeliveryRepository, {
  /** Creates deliveries due at once; one per webhook and event (repeats are ignored); how many were new. */
  readonly insert: (deliveries: ReadonlyArray<NewWebhookDelivery>) => Effect.Effect<number>
  /**
   * Reserves up to `limit` pending deliveries of enabled webhooks whose attempt is due and whose lease is free (or
   * expired) for `owner` until `leaseUntil`, oldest due first; Postgres workers skip each other's rows.
   */
  readonly claim: (options: {
    readonly now: Date
    readonly leaseUntil: Date
    readonly limit: number
    readonly owner: string
  }) => Effect.Effect<ReadonlyArray<ClaimedWebhookDelivery>>
  /** Records attempts: delivered, pending again at `retryAt`, or failed; the lease is released. */
  readonly record: (attempts: ReadonlyArray<WebhookAttempt>, at: Date) => Effect.Effect<void>
  readonly findByUuid: (webhookId: WebhookId, uuid: WebhookDeliveryUuid) => Effect.Effect<Option.Option<WebhookDelivery>>
  readonly list: (webhookId: WebhookId, query: WebhookDeliveryQuery) => Effect.Effect<Page<WebhookDelivery>>
  /** Makes a delivery pending and due at `at` (a manual retry); none when it is unknown. */
  readonly retry: (id: WebhookDeliveryId, at: Date) => Effect.Effect<Option.Option<WebhookDelivery>>
}>() {}
