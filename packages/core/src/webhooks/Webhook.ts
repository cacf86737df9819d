import { Schema } from "effect"
import { EventType } from "../events/EventType.js"
import { Timestamp } from "../domain/Timestamp.js"
import { WebhookId, WebhookUuid } from "./WebhookIds.js"

/**
 * An endpoint that receives events: those of `events` (null: every kind), about the lists of `emailListIds` (null:
 * any, and events about no list), signed with `secret`. A webhook failing for days is disabled with the reason.
 */
export class Webhook extends Schema.Class<Webhook>("Webhook")({
  id: WebhookId,
  uuid: WebhookUuid,
  name: Schema.String,
  url: Schema.String,
  events: Schema.NullOr(Schema.Array(EventType)),
  emailListIds: Schema.NullOr(Schema.Array(Schema.Number)),
  secret: Schema.String,
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Schema.String),
  /** When its deliveries started failing without a success since (null: not failing). */
  failingSince: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** Whether the webhook wants this event (by kind and list; only events recorded after it was created). */
export const wantsEvent = (
  webhook: Webhook,
  event: { readonly type: EventType; readonly emailListId: number | null; readonly occurredAt: Date }
): boolean =>
  webhook.enabled &&
  event.occurredAt >= webhook.createdAt &&
  (webhook.events === null || webhook.events.includes(event.type)) &&
  (webhook.emailListIds === null || (event.emailListId !== null && webhook.emailListIds.includes(event.emailListId)))
