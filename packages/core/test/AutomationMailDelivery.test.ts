/**
 * Automation mail delivery as a library user embeds it: the AutomationMails service and the repository's queueSends
 * (as the automation runner calls it) over the in-memory store and mailer. Outcomes follow the campaign rules.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AutomationMailDelivery,
  AutomationMailInput,
  AutomationMailRepository,
  AutomationMails,
  EmailListRepository,
  Mailroom,
  newUuid,
  type SendUuid,
  SendRepository,
  SubscriberRepository,
  SuppressionRepository
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer, Option, Schema } from "effect"
import { anEmailList, aSubscriber, at } from "../src/testing/suite/fixtures.js"
import { noCsv } from "./noCsv.js"

const layer = Mailroom.pipe(Layer.provideMerge(MemoryMailer), Layer.provideMerge(MemoryStorage), Layer.provide(noCsv))

/** A mail, a list with subscribers `emails`, and a queued send of the mail to each (one run each). */
const queued = (emails: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const mails = yield* AutomationMails
    const repo = yield* AutomationMailRepository
    const { mail } = yield* mails.create(yield* Schema.decodeUnknown(AutomationMailInput)({ name: "Nudge", subject: "Hi", html: "<p>Hi</p>" }))
    const list = yield* (yield* EmailListRepository).insert(anEmailList())
    const subscribers = yield* SubscriberRepository
    const uuids: Array<SendUuid> = []
    for (const [i, email] of emails.entries()) {
      const subscriber = Option.getOrThrow(yield* subscribers.insert(aSubscriber(list.id, { email })))
      const uuid = newUuid() as SendUuid
      uuids.push(uuid)
      expect(yield* repo.queueSends([{ uuid, mailId: mail.id, runId: i + 1, subscriberId: subscriber.id, email }], at(1))).toBe(1)
    }
    return { mail, uuids }
  })
const sendOf = (uuid: SendUuid) => Effect.map(Effect.flatMap(SendRepository, (s) => s.findByUuid(uuid)), (l) => Option.getOrThrow(l).send)
const countersOf = (mail: { readonly id: number }) =>
  Effect.map(Effect.flatMap(AutomationMailRepository, (r) => r.findById(mail.id as never)), Option.getOrThrow)

describe("AutomationMailDelivery (embedded)", () => {
  it.effect("a permanent refusal fails the send, counts a bounce on the mail and suppresses the address", () =>
    Effect.gen(function*() {
      const { mail, uuids } = yield* queued(["gone@example.com", "ok@example.com"])
      yield* (yield* MemoryMailbox).failNext(1, "permanent")
      expect(yield* Effect.flatMap(AutomationMailDelivery, (d) => d.drain())).toBe(2)
      // the two go out concurrently: either may be the one refused
      const sends = [yield* sendOf(uuids[0]!), yield* sendOf(uuids[1]!)]
      const refused = sends.filter((send) => send.sentAt === null)
      expect(refused).toHaveLength(1)
      expect(refused[0]).toMatchObject({ failureReason: expect.stringContaining("550") })
      expect(sends.filter((send) => send.sentAt !== null && send.failedAt === null)).toHaveLength(1)
      expect(yield* countersOf(mail)).toMatchObject({ sentToNumberOfSubscribers: 1, bounceCount: 1 })
      const addresses = ["gone@example.com", "ok@example.com"]
      const suppressed = yield* (yield* SuppressionRepository).suppressedAmong(addresses)
      expect(addresses.filter((address) => suppressed.has(address))).toEqual([refused[0]!.email])
    }).pipe(Effect.provide(layer)))

  it.effect("an unknown outcome counts as sent and is never mailed again; a temporary refusal waits for a retry", () =>
    Effect.gen(function*() {
      const { mail, uuids } = yield* queued(["maybe@example.com", "later@example.com"])
      const mailbox = yield* MemoryMailbox
      yield* mailbox.failNext(1, "unknown")
      yield* Effect.flatMap(AutomationMailDelivery, (d) => d.drain())
      // the two go out concurrently: either may be the one whose outcome is unknown
      const sends = [yield* sendOf(uuids[0]!), yield* sendOf(uuids[1]!)]
      const uncertain = sends.filter((send) => send.deliveryUncertain)
      expect(uncertain).toHaveLength(1)
      expect(uncertain[0]).toMatchObject({ attempts: 1 })
      expect(uncertain[0]!.sentAt).not.toBeNull()
      yield* mailbox.failNext(1, "temporary")
      expect(yield* Effect.flatMap(AutomationMailDelivery, (d) => d.drain())).toBe(0)
      expect((yield* mailbox.sent).filter((m) => m.to.email === uncertain[0]!.email)).toHaveLength(1)
      expect(yield* countersOf(mail)).toMatchObject({ sentToNumberOfSubscribers: 2 })
    }).pipe(Effect.provide(layer)))

  it.effect("a suppressed address and a deleted mail fail their sends without mailing", () =>
    Effect.gen(function*() {
      const { mail, uuids } = yield* queued(["blocked@example.com"])
      yield* (yield* SuppressionRepository).insertOrGet({
        uuid: newUuid() as never,
        email: "blocked@example.com",
        reason: "manual",
        createdAt: at(0),
        updatedAt: at(0)
      })
      yield* Effect.flatMap(AutomationMailDelivery, (d) => d.drain())
      expect(yield* sendOf(uuids[0]!)).toMatchObject({ sentAt: null, failureReason: "The address is suppressed." })
      const again = yield* queued(["fine@example.com"])
      yield* Effect.flatMap(AutomationMails, (m) => m.remove(again.mail.uuid))
      yield* Effect.flatMap(AutomationMailDelivery, (d) => d.drain())
      expect(yield* sendOf(again.uuids[0]!)).toMatchObject({ sentAt: null, failureReason: "The automation mail was deleted before it went out." })
      expect(yield* (yield* MemoryMailbox).sent).toEqual([])
      expect((yield* countersOf(mail)).sentToNumberOfSubscribers).toBe(0)
    }).pipe(Effect.provide(layer)))
})
