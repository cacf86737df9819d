import { EventType, formatTimestamp, JsonValue, type WebhookDelivery, WebhookDeliveryStatus } from "@mailroom/core"
import { Schema } from "effect"

const stamp = (date: Date | null) => (date === null ? null : formatTimestamp(date))

/** A webhook delivery as the API returns it. */
export const WebhookDeliveryResource = Schema.Struct({
  uuid: Schema.UUID,
  event_id: Schema.String.annotations({ description: "The event's id, also the `webhook-id` header of every attempt." }),
  event_type: EventType,
  status: WebhookDeliveryStatus,
  attempts: Schema.Int,
  response_status: Schema.NullOr(Schema.Int),
  response_body: Schema.NullOr(Schema.String).annotations({ description: "The start of the last answer (1,000 characters)." }),
  error: Schema.NullOr(Schema.String),
  duration_ms: Schema.NullOr(Schema.Int),
  next_attempt_at: Schema.NullOr(Schema.String),
  last_attempt_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String),
  payload: JsonValue.annotations({ description: "The body sent on every attempt." }),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "WebhookDelivery" })

/** Renders a delivery. */
export const toWebhookDeliveryResource = (delivery: WebhookDelivery): typeof WebhookDeliveryResource.Type => ({
  uuid: delivery.uuid,
  event_id: `evt_${delivery.eventId}`,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  response_status: delivery.responseStatus,
  response_body: delivery.responseBody,
  error: delivery.error,
  duration_ms: delivery.durationMs,
  next_attempt_at: stamp(delivery.nextAttemptAt),
  last_attempt_at: stamp(delivery.lastAttemptAt),
  delivered_at: stamp(delivery.deliveredAt),
  payload: JSON.parse(delivery.payload) as unknown,
  created_at: formatTimestamp(delivery.createdAt),
  updated_at: formatTimestamp(delivery.updatedAt)
})
