/** Builders and steps shared by the automation storage contracts. */
import { Effect, Option } from "effect"
import type { Automation } from "../../automations/Automation.js"
import { AutomationRunCollection } from "../../automations/AutomationCollections.js"
import type { AutomationUuid } from "../../automations/AutomationIds.js"
import { AutomationRepository, type NewAutomation } from "../../automations/AutomationRepository.js"
import { AutomationRunRepository, type ClaimedRun, type Entry } from "../../automations/AutomationRunRepository.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { type EmailListId, newUuid, type SubscriberId } from "../../domain/Ids.js"
import type { Subscriber } from "../../domain/Subscriber.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"

import { anEmailList, aSubscriber, at } from "./fixtures.js"
export const FIRST = newUuid()
export const SECOND = newUuid()
export const THIRD = newUuid()

/** A started automation of the list with a wait then two actions, ready to insert. */
export const anAutomation = (emailListId: EmailListId, overrides: Partial<NewAutomation> = {}): NewAutomation => ({
  uuid: newUuid() as AutomationUuid,
  name: "Welcome",
  emailListId,
  segmentId: null,
  status: "started",
  trigger: { type: "tag_added", tag: "vip" },
  actions: [
    { uuid: FIRST, type: "wait", length: 1, unit: "days" },
    { uuid: SECOND, type: "add_tags", tags: ["welcomed"] },
    { uuid: THIRD, type: "halt" }
  ],
  repeatEnabled: false,
  repeatOnlyAfterHalt: true,
  startedAt: at(0),
  triggerNextAt: null,
  triggerCursor: 0,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** Where subscribers of the automation enter: its first action at `at(10)`, due at `at(20)`, entering once. */
export const entryOf = (automation: Automation, overrides: Partial<Entry> = {}): Entry => ({
  automationId: automation.id,
  emailListId: automation.emailListId!,
  segment: null,
  rule: { _tag: "once" },
  actionUuid: FIRST,
  at: at(10),
  nextRunAt: at(20),
  ...overrides
})

export const aList = Effect.flatMap(EmailListRepository, (lists) => Effect.map(lists.insert(anEmailList()), (list) => list.id))
export const anAutomationOf = (emailListId: EmailListId, overrides: Partial<NewAutomation> = {}) =>
  Effect.flatMap(AutomationRepository, (automations) => automations.insert(anAutomation(emailListId, overrides)))
export const subscribe = (emailListId: EmailListId, email: string, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
  Effect.flatMap(SubscriberRepository, (subscribers) => Effect.map(subscribers.insert(aSubscriber(emailListId, { email, ...overrides })), Option.getOrThrow))
export const enter = (entry: Entry, subscribers: ReadonlyArray<Subscriber | number>) =>
  Effect.flatMap(AutomationRunRepository, (runs) =>
    Effect.map(runs.enterSubscribers(entry, subscribers.map((s) => (typeof s === "number" ? s : s.id) as SubscriberId)), (ids) => [...ids].sort((a, b) => a - b)))
export const idsOf = (...subscribers: ReadonlyArray<Subscriber>) => subscribers.map((s) => s.id as number).sort((a, b) => a - b)
export const claim = (now: Date, owner = "worker", leaseSeconds = 60, limit = 100) =>
  Effect.flatMap(AutomationRunRepository, (runs) =>
    Effect.map(runs.claim({ now, leaseUntil: new Date(now.getTime() + leaseSeconds * 1000), limit, owner }), (claimed) => [...claimed].sort((a, b) => a.id - b.id)))
export const runOf = (claimed: ReadonlyArray<ClaimedRun>, subscriber: Subscriber) => claimed.find((run) => run.subscriberId === subscriber.id)!
/** Claims the due positions of the automation at `at(1000)` and ends the subscriber's: completed, or halted on its action. */
export const end = (automation: Automation, subscriber: Subscriber, how: "Complete" | "Halt") =>
  Effect.gen(function*() {
    const runs = yield* AutomationRunRepository
    const claimed = yield* runs.claim({ now: at(1000), leaseUntil: at(1000), limit: 100, owner: "ender" })
    const run = claimed.find((r) => r.automationId === automation.id && r.subscriberId === subscriber.id)!
    yield* runs.apply([how === "Complete" ? { _tag: "Complete", id: run.id } : { _tag: "Halt", id: run.id, actionUuid: run.actionUuid, reason: "Halted by the test." }], [], at(1000))
  })
export const listRuns = (automation: Automation, options: Parameters<typeof makeCollectionQuery<"entered_at", "state" | "action_uuid" | "subscriber_uuid", never>>[1] = {}) =>
  Effect.gen(function*() {
    const runs = yield* AutomationRunRepository
    return yield* runs.list(automation.id, yield* makeCollectionQuery(AutomationRunCollection, options))
  })
export const countsOf = (automation: Automation) =>
  Effect.flatMap(AutomationRepository, (automations) => Effect.map(automations.actionCounts(automation.id), (counts) => Object.fromEntries(counts)))
