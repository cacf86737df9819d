/**
 * Work started in this process reaches its worker at once: an import or a campaign started through the API is taken
 * up in the same instant, not at the worker's next regular poll.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  CampaignActions,
  CampaignDelivery,
  CampaignInput,
  Campaigns,
  EmailListInput,
  EmailLists,
  ImportWorker,
  Mailroom,
  SubscriberImportInput,
  SubscriberImports,
  SubscriberInput,
  Subscribers
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Duration, Effect, Fiber, Layer, Schema, TestClock } from "effect"
import { plainCsv } from "./plainCsv.js"

const TestLayer = Mailroom.pipe(Layer.provideMerge(Layer.mergeAll(MemoryStorage, MemoryMailer, plainCsv)))

describe("work started in this process", () => {
  it.effect("an import started is taken up at once, though its worker had just polled and paused", () =>
    Effect.gen(function*() {
      const list = yield* EmailLists.pipe(Effect.flatMap((lists) =>
        lists.create(Schema.decodeUnknownSync(EmailListInput)({ name: "Wake", default_from_email: "w@example.com" }))
      ))
      const imports = yield* SubscriberImports
      const created = yield* imports.create(Schema.decodeUnknownSync(SubscriberImportInput)({
        subscribers_csv: "email\na@example.com\nb@example.com\n",
        email_list_id: list.id,
        subscribe_unsubscribed: false,
        unsubscribe_others: false
      }))
      const worker = yield* Effect.fork((yield* ImportWorker).run)
      yield* TestClock.adjust(Duration.millis(10))
      expect((yield* imports.get(created.uuid)).status).toBe("draft")
      yield* imports.start(created.uuid)
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* imports.get(created.uuid))).toMatchObject({ status: "completed", importedSubscribersCount: 2 })
      yield* Fiber.interrupt(worker)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a campaign sent starts going out at once, though its worker had just polled and paused", () =>
    Effect.gen(function*() {
      const list = yield* EmailLists.pipe(Effect.flatMap((lists) =>
        lists.create(Schema.decodeUnknownSync(EmailListInput)({ name: "Wake", default_from_email: "w@example.com" }))
      ))
      yield* Subscribers.pipe(Effect.flatMap((subscribers) =>
        subscribers.create(list.uuid, Schema.decodeUnknownSync(SubscriberInput)({ email: "reader@example.com" }))
      ))
      const campaign = yield* Campaigns.pipe(Effect.flatMap((campaigns) =>
        campaigns.create(Schema.decodeUnknownSync(CampaignInput)({
          name: "Now",
          email_list_uuid: list.uuid,
          subject: "Hello",
          html: "<p>Hello</p>"
        }))
      ))
      const worker = yield* Effect.fork((yield* CampaignDelivery).run)
      yield* TestClock.adjust(Duration.millis(10))
      yield* CampaignActions.pipe(Effect.flatMap((actions) => actions.send(campaign.campaign.uuid)))
      // the worker's regular pause is 250 ms: the mail is out within a few (the delivery runs in fibers of its own)
      const sent = MemoryMailbox.pipe(Effect.flatMap((mailbox) => mailbox.sent))
      for (let waited = 0; waited < 20 && (yield* sent).length === 0; waited++) yield* TestClock.adjust(Duration.millis(1))
      expect((yield* sent).map((mail) => mail.to)).toEqual([{ email: "reader@example.com", name: null }])
      yield* Fiber.interrupt(worker)
    }).pipe(Effect.provide(TestLayer)))
})
