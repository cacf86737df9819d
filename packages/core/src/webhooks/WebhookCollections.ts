import { type CollectionQuery, collectionSpec } from "../domain/CollectionQuery.js"

/** Webhooks: oldest first by default. */
export const WebhookCollection = collectionSpec({
  sorts: ["created_at", "name"],
  defaultSort: "created_at",
  filters: ["enabled"],
  includes: []
})
/** A query over webhooks. */
export type WebhookQuery = CollectionQuery<"created_at" | "name", "enabled">

/** A webhook's deliveries: newest first by default; filter by status or event type. */
export const WebhookDeliveryCollection = collectionSpec({
  sorts: ["created_at"],
  defaultSort: "-created_at",
  filters: ["status", "event_type"],
  includes: []
})
/** A query over a webhook's deliveries. */
export type WebhookDeliveryQuery = CollectionQuery<"created_at", "status" | "event_type">
