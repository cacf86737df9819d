import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { AutomationMailUuid } from "../../automations/AutomationIds.js"
import { newUuid, type SendUuid, type SubscriberId } from "../../domain/Ids.js"
import { zeroMailCounters } from "../../domain/zeroMailCounters.js"
import { AutomationMailRepository } from "../../automations/AutomationMailRepository.js"
import { JobQueue } from "../../ports/JobQueue.js"
import { QueueDepths } from "../../ports/QueueDepths.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { TransactionalMailRepository } from "../../transactional/TransactionalMailRepository.js"
import { WebhookDeliveryRepository } from "../../webhooks/WebhookDeliveryRepository.js"
import type { WebhookDeliveryUuid, WebhookUuid } from "../../webhooks/WebhookIds.js"
import { WebhookRepository } from "../../webhooks/WebhookRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { aJob, at, aTransactionalMail, type MakeStorage } from "./fixtures.js"
import { anImport } from "./importFixtures.js"

const read = Effect.flatMap(QueueDepths, (depths) => depths.read())

/** QueueDepths conformance: what waits in each durable queue, done and failed work excluded. */
export const queueDepthsContract = (makeStorage: MakeStorage) =>
  describe("QueueDepths", () => {
    const { audience, run } = campaignFixtures(makeStorage)

    it.effect("reads zero everywhere in an empty store", () =>
      run(Effect.gen(function*() {
        expect(yield* read).toEqual({
          pendingSends: { campaign: 0, transactional: 0, automation: 0 },
          pendingJobs: 0,
          imports: { queued: 0, running: 0 },
          pendingWebhookDeliveries: 0
        })
      })))

    it.effect("counts pending sends by kind, unfinished jobs, queued and running imports and pending webhook deliveries", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { list, sendIds, subscribers: [ada] } = yield* audience(["a@example.com", "b@example.com", "c@example.com"])
        yield* sends.record([
          { _tag: "Sent", id: sendIds[0]!, transportMessageId: null },
          { _tag: "Failed", id: sendIds[1]!, reason: "550" }
        ], at(2))

        const transactional = yield* TransactionalMailRepository
        const mail = yield* transactional.insert(aTransactionalMail())
        const first = yield* transactional.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(1) })
        yield* transactional.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(1) })
        yield* sends.record([{ _tag: "Sent", id: first.id, transportMessageId: null }], at(2))

        const automation = yield* AutomationMailRepository
        const welcome = yield* automation.insert({
          uuid: newUuid() as AutomationMailUuid,
          name: "Welcome",
          subject: "Hi",
          fromEmail: "team@example.com",
          fromName: null,
          replyToEmail: null,
          replyToName: null,
          html: "<p>Hi</p>",
          templateId: null,
          fields: {},
          emailHtml: null,
          webviewHtml: null,
          utmTags: false,
          addSubscriberTags: false,
          addSubscriberLinkTags: false,
          trackOpens: false,
          trackClicks: false,
          ...zeroMailCounters,
          createdAt: at(0),
          updatedAt: at(0)
        })
        yield* automation.queueSends([1, 2, 3, 4].map((runId) => ({
          uuid: newUuid() as SendUuid,
          mailId: welcome.id,
          runId,
          subscriberId: ada!.id as SubscriberId,
          email: ada!.email
        })), at(1))

        const jobs = yield* JobQueue
        const done = yield* jobs.enqueue(aJob())
        const failed = yield* jobs.enqueue(aJob())
        yield* jobs.enqueue(aJob())
        yield* jobs.enqueue(aJob({ runAt: at(1_000) }))
        yield* jobs.complete(done.id, at(3))
        yield* jobs.fail(failed.id, at(3), "refused")

        const imports = yield* SubscriberImportRepository
        for (const status of ["draft", "pending", "pending", "importing", "completed", "failed"] as const) {
          yield* imports.insert(anImport(list, { status }), "email\n")
        }

        const hook = yield* (yield* WebhookRepository).insert({
          uuid: newUuid() as WebhookUuid,
          name: "hooks",
          url: "https://hooks.example.com/in",
          events: null,
          emailListIds: null,
          secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2Vj",
          enabled: true,
          disabledReason: null,
          failingSince: null,
          createdAt: at(0),
          updatedAt: at(0)
        })
        const deliveries = yield* WebhookDeliveryRepository
        yield* deliveries.insert([1, 2, 3].map((eventId) => ({
          uuid: newUuid() as WebhookDeliveryUuid,
          webhookId: hook.id,
          eventId,
          eventType: "mail.sent" as const,
          payload: `{"id":"evt_${eventId}"}`,
          at: at(eventId)
        })))
        const [delivered, retried] = yield* deliveries.claim({ now: at(10), leaseUntil: at(70), limit: 2, owner: "a" })
        const attempt = { responseStatus: null, responseBody: null, error: null, durationMs: 5 }
        yield* deliveries.record([
          { ...attempt, id: delivered!.id, succeeded: true, retryAt: null },
          { ...attempt, id: retried!.id, succeeded: false, retryAt: at(100) }
        ], at(11))

        expect(yield* read).toEqual({
          pendingSends: { campaign: 1, transactional: 1, automation: 4 },
          pendingJobs: 2,
          imports: { queued: 2, running: 1 },
          pendingWebhookDeliveries: 2
        })
      })))
  })
