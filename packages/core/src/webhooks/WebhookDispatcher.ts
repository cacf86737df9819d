import { Duration, Effect } from "effect"
import { formatTimestamp } from "../domain/Timestamp.js"
import { newUuid } from "../domain/Ids.js"
import type { DomainEvent } from "../events/DomainEvent.js"
import { EventConsumers } from "../events/EventConsumers.js"
import { now } from "../usecases/now.js"
import { pollForever, SLOWEST_IDLE_POLL } from "../usecases/pollForever.js"
import { MailSending } from "./MailSending.js"
import { WebhookOptions } from "./WebhookOptions.js"
import { wantsEvent } from "./Webhook.js"
import { WebhookDeliveryRepository, type NewWebhookDelivery } from "./WebhookDeliveryRepository.js"
import type { WebhookDeliveryUuid } from "./WebhookIds.js"
import { WebhookPayloads } from "./WebhookPayloads.js"
import { WebhookRepository } from "./WebhookRepository.js"

/** The consumer name of the dispatcher in the outbox. */
export const WEBHOOK_CONSUMER = "webhooks"

/** The body of an event's webhook request (Standard Webhooks: `type`, `timestamp`, `data`; with the event's id). */
export const webhookBody = (event: DomainEvent, data: unknown): string =>
  JSON.stringify({ id: event.publicId, type: event.type, created_at: formatTimestamp(event.occurredAt), data })

/**
 * Turns events into webhook deliveries: an outbox consumer that, for each event, creates one delivery per enabled
 * webhook that wants it, with the body fixed at that moment, in the same transaction that moves its position (so
 * each event becomes each webhook's delivery exactly once). Sending is the WebhookSender's work, so a slow endpoint
 * never holds up the outbox or the mail.
 */
export class WebhookDispatcher extends Effect.Service<WebhookDispatcher>()("@mailroom/WebhookDispatcher", {
  effect: Effect.gen(function*() {
    const consumers = yield* EventConsumers
    const webhooks = yield* WebhookRepository
    const deliveries = yield* WebhookDeliveryRepository
    const payloads = yield* WebhookPayloads

    const handle = (events: ReadonlyArray<DomainEvent>) =>
      Effect.gen(function*() {
        const enabled = yield* webhooks.enabled
        if (enabled.length === 0) return
        const wanted = events.flatMap((event) => {
          const targets = enabled.filter((webhook) => wantsEvent(webhook, event))
          return targets.length === 0 ? [] : [{ event, targets }]
        })
        if (wanted.length === 0) return
        const data = yield* payloads.render(wanted.map((w) => w.event))
        const at = yield* now
        const rows: Array<NewWebhookDelivery> = []
        for (const { event, targets } of wanted) {
          const payload = webhookBody(event, data.get(event.id) ?? null)
          for (const webhook of targets) {
            rows.push({
              uuid: newUuid() as WebhookDeliveryUuid,
              webhookId: webhook.id,
              eventId: event.id,
              eventType: event.type,
              payload,
              at
            })
          }
        }
        yield* deliveries.insert(rows)
      })

    const options = {
      batchSize: 1_000,
      start: "beginning" as const,
      idle: Duration.millis(100),
      interested: Effect.map(webhooks.enabled, (enabled) => enabled.length > 0)
    }
    const webhookOptions = yield* WebhookOptions
    const mailSending = (yield* MailSending).sending

    /** One batch; while a campaign is sending (and a rate is set), a fifth of the senders' rate every 200 ms. */
    const step = Effect.gen(function*() {
      const rate = webhookOptions.ratePerSecondWhileSending
      if (rate > 0 && (yield* mailSending)) {
        yield* consumers.step(WEBHOOK_CONSUMER, handle, { ...options, batchSize: Math.max(1, Math.round(rate / 5)) })
        return Duration.millis(200)
      }
      return yield* consumers.step(WEBHOOK_CONSUMER, handle, options)
    })

    /** Dispatches until interrupted. */
    const run = pollForever("Webhook dispatcher", step, options.idle, SLOWEST_IDLE_POLL)

    /** Dispatches every event waiting now (tests and tools). */
    const drain = consumers.drain(WEBHOOK_CONSUMER, handle, options)

    return { run, drain } as const
  })
}) {}
