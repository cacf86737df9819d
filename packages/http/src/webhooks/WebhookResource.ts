import { EventType, formatTimestamp, type WrittenWebhook } from "@mailroom/core"
import { Schema } from "effect"

/** A webhook as the API returns it; `secret` only in the answer of the write that generated or changed it. */
export const WebhookResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  url: Schema.String,
  events: Schema.Union(Schema.Array(EventType), Schema.Tuple(Schema.Literal("*")))
    .annotations({ description: "The event types it receives; `[\"*\"]`: every type." }),
  email_list_uuids: Schema.NullOr(Schema.Array(Schema.String))
    .annotations({ description: "Only events about these lists; null: every event." }),
  secret: Schema.optional(Schema.String).annotations({ description: "The signing secret: shown once, when generated or changed." }),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String),
  failing_since: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Webhook" })

/** Renders a webhook. */
export const toWebhookResource = ({ emailListUuids, revealSecret, webhook }: WrittenWebhook): typeof WebhookResource.Type => ({
  uuid: webhook.uuid,
  name: webhook.name,
  url: webhook.url,
  events: webhook.events === null ? ["*"] : webhook.events,
  email_list_uuids: emailListUuids,
  ...(revealSecret ? { secret: webhook.secret } : {}),
  enabled: webhook.enabled,
  disabled_reason: webhook.disabledReason,
  failing_since: webhook.failingSince === null ? null : formatTimestamp(webhook.failingSince),
  created_at: formatTimestamp(webhook.createdAt),
  updated_at: formatTimestamp(webhook.updatedAt)
})
