/** The event kinds a webhook can receive (packages/core/src/events/EventType.ts). */
export const EVENT_TYPES = [
  "subscriber.created", "subscriber.confirmed", "subscriber.unsubscribed", "subscriber.resubscribed", "subscriber.deleted",
  "tag.added", "tag.removed", "campaign.sending", "campaign.sent", "mail.sent", "mail.failed", "mail.opened",
  "mail.clicked", "mail.bounced", "mail.complained", "import.completed", "transactional_mail.sent"
] as const

/** An outgoing webhook as the API returns it; `secret` only in the answer of the write that set it. */
export interface Webhook {
  readonly uuid: string
  readonly name: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly email_list_uuids: ReadonlyArray<string> | null
  readonly secret?: string
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly failing_since: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** One event posted (or to be posted) to a webhook. */
export interface WebhookDelivery {
  readonly uuid: string
  readonly event_id: string
  readonly event_type: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly attempts: number
  readonly response_status: number | null
  readonly response_body: string | null
  readonly error: string | null
  readonly duration_ms: number | null
  readonly next_attempt_at: string | null
  readonly last_attempt_at: string | null
  readonly delivered_at: string | null
  readonly payload: unknown
  readonly created_at: string
}

/** Whether a webhook gets every event (no list, or "*"). */
export const isAll = (events: ReadonlyArray<string>) => events.length === 0 || events.includes("*")

/** A webhook's events in words. */
export const eventsText = (events: ReadonlyArray<string>) => (isAll(events) ? "All events" : events.join(", "))
