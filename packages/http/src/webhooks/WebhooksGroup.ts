import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { WebhookCollection, WebhookDeliveryCollection, WebhookInput, WebhookUpdateInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { WebhookDeliveryResource } from "./WebhookDeliveryResource.js"
import { WebhookResource } from "./WebhookResource.js"
import { operationDocs } from "../operationDocs.js"

const WebhookPath = Schema.Struct({ webhook: Schema.String.annotations({ description: "The webhook's uuid." }) })
const DeliveryPath = Schema.Struct({
  webhook: Schema.String.annotations({ description: "The webhook's uuid." }),
  delivery: Schema.String.annotations({ description: "The delivery's uuid." })
})

/** /api/webhooks: outgoing webhooks, their deliveries and a manual retry. */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .annotate(OpenApi.Summary, "List webhooks")
      .setUrlParams(collectionParams(WebhookCollection))
      .addSuccess(Collection(WebhookResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .annotate(OpenApi.Summary, "Create a webhook")
      .setPayload(allErrors(WebhookInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { url: "https://hooks.example.com/mailroom", events: ["subscriber.created"] } }))
      .addSuccess(Data(WebhookResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Creates a webhook; the answer shows its signing secret (generated when none is given) once.")
  )
  .add(
    HttpApiEndpoint.get("get", "/webhooks/:webhook")
      .annotate(OpenApi.Summary, "Get a webhook")
      .setPath(WebhookPath)
      .addSuccess(Data(WebhookResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/webhooks/:webhook")
      .annotate(OpenApi.Summary, "Update a webhook")
      .setPath(WebhookPath)
      .setPayload(allErrors(WebhookUpdateInput))
      .addSuccess(Data(WebhookResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Changes the fields given. `enabled: true` on a disabled webhook clears its failure state.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/webhooks/:webhook")
      .annotate(OpenApi.Summary, "Delete a webhook")
      .setPath(WebhookPath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("listDeliveries", "/webhooks/:webhook/deliveries")
      .annotate(OpenApi.Summary, "List a webhook's deliveries")
      .setPath(WebhookPath)
      .setUrlParams(collectionParams(WebhookDeliveryCollection))
      .addSuccess(Collection(WebhookDeliveryResource))
      .addError(NotFoundError)
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.get("getDelivery", "/webhooks/:webhook/deliveries/:delivery")
      .annotate(OpenApi.Summary, "Get a webhook delivery")
      .setPath(DeliveryPath)
      .addSuccess(Data(WebhookDeliveryResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("retryDelivery", "/webhooks/:webhook/deliveries/:delivery/retry")
      .annotate(OpenApi.Summary, "Retry a webhook delivery")
      .setPath(DeliveryPath)
      .addSuccess(Data(WebhookDeliveryResource))
      .addError(NotFoundError)
      .annotate(OpenApi.Description, "Sends the delivery again (same body and `webhook-id`) as soon as a sender is free.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Outgoing webhooks: events (`{id, type, created_at, data}`) posted to your endpoints, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried for about a day."
  )
{}
