import { Schema } from "effect"

/** Integer primary key of an outgoing webhook. */
export const WebhookId = Schema.Int.pipe(Schema.brand("WebhookId"))
/** @since 0.2.0 */
export type WebhookId = typeof WebhookId.Type

/** Public UUID of an outgoing webhook. */
export const WebhookUuid = Schema.UUID.pipe(Schema.brand("WebhookUuid"))
/** @since 0.2.0 */
export type WebhookUuid = typeof WebhookUuid.Type

/** Integer primary key of one delivery of an event to a webhook. */
export const WebhookDeliveryId = Schema.Int.pipe(Schema.brand("WebhookDeliveryId"))
/** @since 0.2.0 */
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type

/** Public UUID of one delivery of an event to a webhook. */
export const WebhookDeliveryUuid = Schema.UUID.pipe(Schema.brand("WebhookDeliveryUuid"))
/** @since 0.2.0 */
export type WebhookDeliveryUuid = typeof WebhookDeliveryUuid.Type
