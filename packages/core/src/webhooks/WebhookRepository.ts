import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { Webhook } from "./Webhook.js"
import type { WebhookQuery } from "./WebhookCollections.js"
import type { WebhookId, WebhookUuid } from "./WebhookIds.js"

/** A webhook before the store has given it an id. */
export type NewWebhook = Omit<Webhook, "id">

/** What can change on a webhook. */
export type WebhookChanges = Partial<Pick<Webhook, "name" | "url" | "events" | "emailListIds" | "secret" | "enabled" | "disabledReason" | "failingSince" | "updatedAt">>

/** Storage of outgoing webhooks. */
export class WebhookRepository extends Context.Tag("@mailroom/WebhookRepository")<WebhookRepository, {
  readonly insert: (webhook: NewWebhook) => Effect.Effect<Webhook>
  readonly update: (id: WebhookId, changes: WebhookChanges) => Effect.Effect<Option.Option<Webhook>>
  readonly findById: (id: WebhookId) => Effect.Effect<Option.Option<Webhook>>
  readonly findByUuid: (uuid: WebhookUuid) => Effect.Effect<Option.Option<Webhook>>
  readonly list: (query: WebhookQuery) => Effect.Effect<Page<Webhook>>
  /** Every enabled webhook (the dispatcher matches each event against them). */
  readonly enabled: Effect.Effect<ReadonlyArray<Webhook>>
  /** Deletes the webhook with its deliveries. */
  readonly delete: (id: WebhookId) => Effect.Effect<boolean>
}>() {}
