import { Schema } from "effect"
import { EventType } from "../events/EventType.js"
import { Timestamp } from "../domain/Timestamp.js"
import { WebhookDeliveryId, WebhookDeliveryUuid, WebhookId } from "./WebhookIds.js"

/** Where a delivery stands: waiting for its first or next attempt, delivered, or given up. */
export const WebhookDeliveryStatus = Schema.Literal("pending", "succeeded", "failed")
/** @since 0.2.0 */
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One event for one webhook: the exact body sent on every attempt, and how the last attempt went. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  id: WebhookDeliveryId,
  uuid: WebhookDeliveryUuid,
  webhookId: WebhookId,
  eventId: Schema.Number,
  eventType: EventType,
  /** The JSON body, fixed when the delivery is created (retries send the same bytes). */
  payload: Schema.String,
  status: WebhookDeliveryStatus,
  attempts: Schema.Number,
  nextAttemptAt: Schema.NullOr(Timestamp),
  lastAttemptAt: Schema.NullOr(Timestamp),
  responseStatus: Schema.NullOr(Schema.Number),
  /** The start of the last response's body (at most 1,000 characters). */
  responseBody: Schema.NullOr(Schema.String),
  /** Why the last attempt failed (a timeout, a refused connection, a non-2xx answer). */
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.NullOr(Schema.Number),
  deliveredAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}
