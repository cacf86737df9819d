import { HttpApiBuilder } from "@effect/platform"
import { WebhookCollection, WebhookDeliveryCollection, Webhooks } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { queryParams } from "../handlers/queryParams.js"
import { toWebhookDeliveryResource } from "./WebhookDeliveryResource.js"
import { toWebhookResource } from "./WebhookResource.js"

/** Handlers of /api/webhooks. */
export const WebhooksLive = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(WebhookCollection)
          return yield* toCollection(yield* webhooks.list(query), query, toWebhookResource)
        }))
      .handle("create", ({ payload }) => Effect.map(webhooks.create(payload), (w) => ({ data: toWebhookResource(w) })))
      .handle("get", ({ path }) => Effect.map(webhooks.get(path.webhook), (w) => ({ data: toWebhookResource(w) })))
      .handle("update", ({ path, payload }) => Effect.map(webhooks.update(path.webhook, payload), (w) => ({ data: toWebhookResource(w) })))
      .handle("delete", ({ path }) => webhooks.remove(path.webhook))
      .handle("listDeliveries", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(WebhookDeliveryCollection)
          return yield* toCollection(yield* webhooks.listDeliveries(path.webhook, query), query, toWebhookDeliveryResource)
        }))
      .handle("getDelivery", ({ path }) =>
        Effect.map(webhooks.getDelivery(path.webhook, path.delivery), (d) => ({ data: toWebhookDeliveryResource(d) })))
      .handle("retryDelivery", ({ path }) =>
        Effect.map(webhooks.retryDelivery(path.webhook, path.delivery), (d) => ({ data: toWebhookDeliveryResource(d) })))
  }))
