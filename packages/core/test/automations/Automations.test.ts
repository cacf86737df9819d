/**
 * Automations as a library user embeds them (memory store and mailer, no HTTP), with the test clock driving waits of
 * days: a welcome series with a wait and an opened condition, edits of a started automation, halting on unsubscribe,
 * webhook actions retried until answered, date and attribute-date triggers, and a claim left by a crashed worker.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AutomationInput,
  AutomationMailDelivery,
  AutomationMailInput,
  AutomationMails,
  AutomationRunner,
  AutomationRunRepository,
  Automations,
  AutomationTriggers,
  EmailListInput,
  EmailLists,
  Mailroom,
  MailroomAutomations,
  SubscriberActions,
  SubscriberInput,
  Subscribers,
  Tracking,
  WebhookTransport,
  type WebhookRequest
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer, Ref, Schema, TestClock } from "effect"
import { noCsv } from "../noCsv.js"


/** A webhook transport that records requests and answers with the statuses given, then 200. */
class Hooks extends Effect.Service<Hooks>()("test/Hooks", {
  effect: Effect.map(Ref.make<{ requests: Array<WebhookRequest>; statuses: Array<number> }>({ requests: [], statuses: [] }), (state) => ({ state }))
}) {}
const hookTransport = Layer.effect(WebhookTransport, Effect.map(Hooks, ({ state }) => WebhookTransport.of({
  post: (request) =>
    Ref.modify(state, (s) => {
      const [status = 200, ...rest] = s.statuses
      return [{ _tag: "Answered" as const, status, body: "", durationMs: 1 }, { requests: [...s.requests, request], statuses: rest }]
    })
}))).pipe(Layer.provideMerge(Hooks.Default))

const layer = MailroomAutomations.pipe(
  Layer.provideMerge(Mailroom),
  Layer.provideMerge(MemoryMailer),
  Layer.provideMerge(hookTransport),
  Layer.provideMerge(MemoryStorage),
  Layer.provide(noCsv)
)

const decode = <A, I>(schema: Schema.Schema<A, I>, body: unknown) => Schema.decodeUnknown(schema)(body).pipe(Effect.orDie)

/** Runs triggers, steps and mail delivery until nothing moves. */
const settle = Effect.gen(function*() {
  const triggers = yield* AutomationTriggers
  const runner = yield* AutomationRunner
  const delivery = yield* AutomationMailDelivery
  yield* triggers.drain()
  yield* runner.drain()
  yield* triggers.drain()
  yield* runner.drain()
  yield* delivery.drain()
})

const setup = Effect.gen(function*() {
  yield* TestClock.setTime(new Date("2026-11-26T09:00:00Z").getTime())
  const list = yield* (yield* EmailLists).create(yield* decode(EmailListInput, { name: "News", default_from_email: "news@example.com" }))
  const mails = yield* AutomationMails
  const m1 = yield* mails.create(yield* decode(AutomationMailInput, { name: "Welcome", subject: "Welcome {{ subscriber.first_name }}", html: "<p>Hello {{ subscriber.first_name }}</p>" }))
  const m2 = yield* mails.create(yield* decode(AutomationMailInput, { name: "Nudge", subject: "Still there?", html: "<p>Look</p>" }))
  const subscribe = (name: string, extra: Record<string, unknown> = {}) =>
    Effect.flatMap(decode(SubscriberInput, { email: `${name}@example.com`, first_name: name, extra_attributes: extra }), (input) =>
      Effect.map((Subscribers).pipe(Effect.flatMap((s) => s.create(list.uuid, input))), (r) => r.subscriber))
  const automate = (body: Record<string, unknown>) =>
    Effect.gen(function*() {
      const automations = yield* Automations
      const created = yield* automations.create(yield* decode(AutomationInput, { email_list_uuid: list.uuid, ...body }))
      yield* automations.start(created.automation.uuid)
      return created.automation.uuid
    })
  return { list, m1, m2, subscribe, automate }
})

const subjectsTo = (email: string) => Effect.map(Effect.flatMap(MemoryMailbox, (m) => m.sent), (sent) => sent.filter((m) => m.to.email === email).map((m) => m.subject))

describe("Automations (embedded, test clock)", () => {
  it.effect("a welcome series: mail, wait a day, then engaged subscribers are tagged and the others nudged", () =>
    Effect.gen(function*() {
      const { automate, m1, m2, subscribe } = yield* setup
      const uuid = yield* automate({
        name: "Welcome series",
        trigger: { type: "subscribed" },
        actions: [
          { type: "send_mail", automation_mail_uuid: m1.mail.uuid },
          { type: "wait", length: 1, unit: "days" },
          {
            type: "condition",
            condition: { type: "opened", automation_mail_uuid: m1.mail.uuid },
            window: { length: 1, unit: "days" },
            yes: [{ type: "add_tags", tags: ["engaged"] }],
            no: [{ type: "send_mail", automation_mail_uuid: m2.mail.uuid }]
          }
        ]
      })
      const ann = yield* subscribe("ann")
      yield* subscribe("bob")
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
      expect(yield* subjectsTo("bob@example.com")).toEqual(["Welcome bob"])
      const mailed = (yield* Effect.flatMap(MemoryMailbox, (m) => m.sent)).find((m) => m.to.email === "ann@example.com")!
      const [, send, signature] = /\/t\/o\/([^/"]+)\/([^"]+)"/.exec(mailed.html)!
      yield* (yield* Tracking).open(send!, signature!)
      const automations = yield* Automations
      const view = yield* automations.get(uuid)
      const [mailAction, waitAction] = view.automation.placedActions
      expect(view.counts.get(mailAction!.uuid)).toEqual({ active: 0, completed: 2, halted: 0 })
      expect(view.counts.get(waitAction!.uuid)).toEqual({ active: 2, completed: 0, halted: 0 })
      yield* TestClock.adjust("1 day")
      yield* settle
      expect((yield* (yield* Subscribers).get(ann.uuid)).subscriber.tags).toContain("engaged")
      expect(yield* subjectsTo("bob@example.com")).toEqual(["Welcome bob"])
      yield* TestClock.adjust("1 day")
      yield* settle
      expect(yield* subjectsTo("bob@example.com")).toEqual(["Welcome bob", "Still there?"])
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
      const where = yield* automations.subscribers(uuid, { page: 1, perPage: 10, sort: [], filters: {}, includes: [] })
      expect(where.items.map((run) => run.state)).toEqual(["completed", "completed"])
      // nobody enters twice without repeat_enabled
      yield* (yield* SubscriberActions).perform("unsubscribe", ann.uuid)
      yield* (yield* SubscriberActions).perform("resubscribe", ann.uuid)
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
    }).pipe(Effect.provide(layer)))

  it.effect("editing a started automation keeps subscribers on their action and halts those whose action was removed; unsubscribing halts", () =>
    Effect.gen(function*() {
      const { automate, m1, subscribe } = yield* setup
      const uuid = yield* automate({
        name: "Drip",
        trigger: { type: "tag_added", tag: "trial" },
        actions: [{ type: "wait", length: 2, unit: "weekdays" }, { type: "send_mail", automation_mail_uuid: m1.mail.uuid }]
      })
      const ann = yield* subscribe("ann")
      const bob = yield* subscribe("bob")
      yield* subscribe("cid")
      const subscribers = yield* Subscribers
      yield* subscribers.changeTags(ann.uuid, ["trial"], "add")
      yield* subscribers.changeTags(bob.uuid, ["trial"], "add")
      yield* settle
      const automations = yield* Automations
      const before = yield* automations.get(uuid)
      expect(before.counts.get(before.automation.placedActions[0]!.uuid)?.active).toBe(2)
      yield* (yield* SubscriberActions).perform("unsubscribe", bob.uuid)
      // Thursday 09:00 + 2 weekdays = Monday 09:00
      yield* TestClock.adjust("3 days")
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual([])
      yield* TestClock.adjust("1 day")
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
      expect(yield* subjectsTo("bob@example.com")).toEqual([])
      const halted = yield* automations.subscribers(uuid, { page: 1, perPage: 10, sort: [], filters: { state: "halted" }, includes: [] })
      expect(halted.items.map((run) => run.subscriberUuid)).toEqual([bob.uuid])
      // an edit: the wait stays (same uuid) for a new subscriber, a removed action halts who stood on it
      const dan = yield* subscribe("dan")
      yield* subscribers.changeTags(dan.uuid, ["trial"], "add")
      yield* settle
      const current = (yield* automations.get(uuid)).automation.placedActions
      yield* automations.update(uuid, yield* decode(AutomationInput, { actions: [{ ...current[1]! }] }))
      const after = yield* automations.subscribers(uuid, { page: 1, perPage: 10, sort: [], filters: { subscriber_uuid: dan.uuid }, includes: [] })
      expect(after.items.map((run) => run.state)).toEqual(["halted"])
      expect(yield* Effect.flip(automations.update(uuid, yield* decode(AutomationInput, {
        actions: [{ type: "condition", condition: { type: "has_tag", tag: "x" }, window: { length: 1, unit: "days" }, yes: [{ type: "send_mail", automation_mail_uuid: "6b0f7c38-0000-4000-8000-000000000000" }], no: [] }]
      })))).toMatchObject({ errors: { "actions.0.yes.0.automation_mail_uuid": ["The selected automation mail is invalid."] } })
    }).pipe(Effect.provide(layer)))

  it.effect("a webhook action is posted signed, retried until a 2xx answers, with the same webhook-id", () =>
    Effect.gen(function*() {
      const { automate, subscribe } = yield* setup
      const hooks = yield* Hooks
      yield* Ref.update(hooks.state, (s) => ({ ...s, statuses: [500] }))
      yield* automate({
        name: "Notify",
        trigger: { type: "subscribed" },
        actions: [{ type: "webhook", url: "https://app.example.com/hook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }, { type: "add_tags", tags: ["notified"] }]
      })
      const ann = yield* subscribe("ann")
      yield* settle
      expect((yield* Ref.get(hooks.state)).requests).toHaveLength(1)
      expect((yield* (yield* Subscribers).get(ann.uuid)).subscriber.tags).not.toContain("notified")
      yield* TestClock.adjust("1 minute")
      yield* settle
      const { requests } = yield* Ref.get(hooks.state)
      expect(requests).toHaveLength(2)
      expect(requests[0]!.messageId).toBe(requests[1]!.messageId)
      expect(JSON.parse(requests[1]!.body).data.subscriber).toMatchObject({ uuid: ann.uuid, email: "ann@example.com" })
      expect((yield* (yield* Subscribers).get(ann.uuid)).subscriber.tags).toContain("notified")
    }).pipe(Effect.provide(layer)))

  it.effect("a date trigger enrols every member at its time; an attribute date enrols birthdays yearly", () =>
    Effect.gen(function*() {
      const { automate, m1, subscribe } = yield* setup
      const ann = yield* subscribe("ann", { birthday: "1990-11-27" })
      const bob = yield* subscribe("bob", { birthday: "1985-03-01" })
      yield* automate({ name: "Announcement", trigger: { type: "date", at: "2026-11-26 12:00:00" }, actions: [{ type: "send_mail", automation_mail_uuid: m1.mail.uuid }] })
      yield* automate({ name: "Birthday", trigger: { type: "attribute_date", attribute: "birthday", yearly: true }, actions: [{ type: "add_tags", tags: ["birthday"] }] })
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual([])
      yield* TestClock.adjust("3 hours")
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
      expect(yield* subjectsTo("bob@example.com")).toEqual(["Welcome bob"])
      yield* TestClock.adjust("1 day")
      yield* settle
      const tags = (name: string) =>
        Effect.flatMap(Subscribers, (s) => Effect.map(s.get(name === "ann" ? ann.uuid : bob.uuid), (found) => found.subscriber.tags))
      expect(yield* tags("ann")).toContain("birthday")
      expect(yield* tags("bob")).not.toContain("birthday")
    }).pipe(Effect.provide(layer)))

  it.effect("positions claimed by a worker that crashed come back after the lease, and their step is done once", () =>
    Effect.gen(function*() {
      const { automate, m1, subscribe } = yield* setup
      yield* automate({ name: "Once", trigger: { type: "subscribed" }, actions: [{ type: "send_mail", automation_mail_uuid: m1.mail.uuid }] })
      yield* subscribe("ann")
      yield* (yield* AutomationTriggers).drain()
      const runs = yield* AutomationRunRepository
      const now = new Date(yield* TestClock.currentTimeMillis)
      const lost = yield* runs.claim({ now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10, owner: "crashed" })
      expect(lost).toHaveLength(1)
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual([])
      yield* TestClock.adjust("61 seconds")
      yield* settle
      yield* settle
      expect(yield* subjectsTo("ann@example.com")).toEqual(["Welcome ann"])
    }).pipe(Effect.provide(layer)))
})
