import { Duration, Effect, Option } from "effect"
import { entriesById } from "../domain/entriesById.js"
import { newUuid } from "../domain/Ids.js"
import { MailroomMetrics } from "../metrics/MailroomMetrics.js"
import { Transactor } from "../ports/Transactor.js"
import { now } from "../usecases/now.js"
import { makeOutage, untilItWorks } from "../usecases/Outage.js"
import { pollForever, SLOWEST_IDLE_POLL } from "../usecases/pollForever.js"
import type { ClaimedWebhookDelivery, WebhookAttempt } from "./WebhookDeliveryRepository.js"
import { WebhookDeliveryRepository } from "./WebhookDeliveryRepository.js"
import { MailSending } from "./MailSending.js"
import { WebhookOptions } from "./WebhookOptions.js"
import type { WebhookId } from "./WebhookIds.js"
import { WebhookRepository } from "./WebhookRepository.js"
import { DISABLE_AFTER, nextAttemptAt } from "./webhookSchedule.js"
import { type WebhookResponse, WebhookTransport } from "./WebhookTransport.js"

/** The most characters of a response body kept on the delivery. */
const BODY_KEPT = 1_000

/** How an answer counts: 2xx delivered; anything else (or none) is retried on the schedule. */
const attemptOf = (delivery: ClaimedWebhookDelivery, response: WebhookResponse, at: Date): WebhookAttempt => {
  const succeeded = response._tag === "Answered" && response.status >= 200 && response.status < 300
  const error = response._tag === "NoAnswer" ? response.error : succeeded ? null : `The endpoint answered ${response.status}.`
  return {
    id: delivery.id,
    succeeded,
    responseStatus: response._tag === "Answered" ? response.status : null,
    responseBody: response._tag === "Answered" ? response.body.slice(0, BODY_KEPT) : null,
    error,
    durationMs: Math.round(response.durationMs),
    retryAt: succeeded ? null : nextAttemptAt(delivery.attempts + 1, at)
  }
}

/**
 * Sends webhook deliveries: loops that claim due deliveries under a lease, post them signed (timeout and response
 * cap in the transport), and record each attempt; failures are retried on the Standard Webhooks schedule (about a
 * day), and a webhook whose deliveries have failed for 3 days without a success is disabled with the reason. A crash
 * between a request and its record sends it again once the lease ends (at least once; the `webhook-id` stays the same
 * so receivers can drop the repeat).
 */
export class WebhookSender extends Effect.Service<WebhookSender>()("@mailroom/WebhookSender", {
  effect: Effect.gen(function*() {
    const deliveries = yield* WebhookDeliveryRepository
    const webhooks = yield* WebhookRepository
    const transport = yield* WebhookTransport
    const { withTransaction } = yield* Transactor
    const options = yield* WebhookOptions
    const mailSending = (yield* MailSending).sending
    const outage = makeOutage("Recording webhook deliveries")
    /** Open while a loop is sending: only then do the other loops poll, so an idle sender makes one loop's claims. */
    const othersPoll = yield* Effect.makeLatch(false)
    let sending = 0
    // each count and its latch change in one step: no other loop's change can run between them
    const whileSending = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        Effect.sync(() => {
          if (++sending === 1) othersPoll.unsafeOpen()
        }),
        () => self,
        () =>
          Effect.sync(() => {
            if (--sending === 0) othersPoll.unsafeClose()
          })
      )

    /** Notes each webhook's health: a success clears its failing state; failing for 3 days disables it. */
    const noteHealth = (
      attempts: ReadonlyArray<{ readonly webhookId: WebhookId; readonly failingSince: Date | null; readonly attempt: WebhookAttempt }>,
      at: Date
    ) =>
      Effect.gen(function*() {
        const byWebhook = new Map<WebhookId, Array<WebhookAttempt>>()
        for (const { attempt, webhookId } of attempts) byWebhook.set(webhookId, [...(byWebhook.get(webhookId) ?? []), attempt])
        // a healthy webhook whose attempts all succeeded has nothing to note (the usual case: no look-up)
        const healthy = new Set(attempts.filter((a) => a.failingSince === null).map((a) => a.webhookId))
        // webhooks in id order, as the other groups recording at the same time take them
        for (const [webhookId, results] of entriesById(byWebhook)) {
          if (healthy.has(webhookId) && results.every((r) => r.succeeded)) continue
          const found = yield* webhooks.findById(webhookId)
          if (Option.isNone(found)) continue
          const webhook = found.value
          if (results.some((r) => r.succeeded)) {
            if (webhook.failingSince !== null) yield* webhooks.update(webhookId, { failingSince: null })
            continue
          }
          const since = webhook.failingSince ?? at
          const last = results.at(-1)!
          if (at.getTime() - since.getTime() >= Duration.toMillis(DISABLE_AFTER)) {
            yield* webhooks.update(webhookId, {
              failingSince: since,
              enabled: false,
              disabledReason: `Disabled at ${at.toISOString()}: every delivery failed since ${since.toISOString()} (last: ${last.error ?? "no answer"}).`,
              updatedAt: at
            })
          } else if (webhook.failingSince === null) {
            yield* webhooks.update(webhookId, { failingSince: since })
          }
        }
      })

    /** Posts a group of deliveries at once and records them together as soon as all are answered. */
    const sendGroup = (group: ReadonlyArray<ClaimedWebhookDelivery>) =>
      Effect.gen(function*() {
        const answered = yield* Effect.forEach(group, (delivery) =>
          Effect.map(
            transport.post({
              url: delivery.url,
              messageId: `evt_${delivery.eventId}`,
              // the signature's time is the wall clock's: receivers compare it with theirs
              timestamp: new Date(),
              body: delivery.payload,
              secret: delivery.secret
            }),
            (response) => ({ delivery, response })
          ), { concurrency: "unbounded" })
        const done = yield* now
        const attempts = answered.map(({ delivery, response }) => ({
          webhookId: delivery.webhookId,
          failingSince: delivery.failingSince,
          attempt: attemptOf(delivery, response, done)
        }))
        for (const { attempt } of attempts) {
          MailroomMetrics.webhookDeliveries[attempt.succeeded ? "delivered" : "failed"].unsafeUpdate(1, [])
        }
        yield* untilItWorks(
          withTransaction(Effect.zipRight(deliveries.record(attempts.map((a) => a.attempt), done), noteHealth(attempts, done))),
          outage
        )
      })

    /**
     * Claims as many deliveries as may be in flight, sends them in groups each recorded when done; how many. While a
     * campaign is sending and a rate is set, only the first loop works, a tenth of the rate every 100 ms.
     */
    const step = Effect.fn("WebhookSender.step")(function*(owner: string, loop = 0) {
      const throttled = options.ratePerSecondWhileSending > 0 && (yield* mailSending)
      if (throttled && loop > 0) return Duration.millis(500)
      const at = yield* now
      const claimed = yield* withTransaction(deliveries.claim({
        now: at,
        leaseUntil: new Date(at.getTime() + Duration.toMillis(options.lease)),
        limit: throttled ? Math.max(1, Math.round(options.ratePerSecondWhileSending / 10)) : options.concurrency,
        owner
      }))
      if (claimed.length === 0) return 0
      const size = Math.max(1, options.recordGroup)
      const groups = Array.from({ length: Math.ceil(claimed.length / size) }, (_, i) => claimed.slice(i * size, (i + 1) * size))
      yield* whileSending(Effect.forEach(groups, sendGroup, { concurrency: "unbounded", discard: true }))
      return throttled ? Duration.millis(100) : claimed.length
    })

    /**
     * Sends until interrupted: several loops, so that a slow endpoint holds one loop's claims and not the others. The
     * first polls when there is nothing due; the others poll only while some loop is sending (a backlog, or a loop held
     * by a slow endpoint), and otherwise wait without polling or answering the nudge of every commit.
     */
    const run: Effect.Effect<never> = Effect.raceAll(
      Array.from({ length: Math.max(1, options.loops) }, (_, loop) => {
        const claim = step(`webhooks-${newUuid()}`, loop)
        return pollForever("Webhook sender", loop === 0 ? claim : Effect.zipRight(othersPoll.await, claim), options.pollInterval, SLOWEST_IDLE_POLL)
      })
    )

    /** Sends every delivery due now (tests and tools). */
    const drain = Effect.suspend(() => {
      const owner = `webhooks-${newUuid()}`
      return Effect.iterate(1 as number | Duration.Duration, {
        while: (sent) => Duration.isDuration(sent) || sent > 0,
        body: () => step(owner)
      }).pipe(Effect.asVoid)
    })

    return { step, run, drain } as const
  })
}) {}
