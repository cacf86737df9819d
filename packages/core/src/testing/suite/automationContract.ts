import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Automation } from "../../automations/Automation.js"
import { AutomationCollection, AutomationRunCollection } from "../../automations/AutomationCollections.js"
import type { AutomationUuid } from "../../automations/AutomationIds.js"
import { AutomationRepository, type NewAutomation } from "../../automations/AutomationRepository.js"
import { AutomationRunRepository, type ClaimedRun, type Entry, type EntryRule } from "../../automations/AutomationRunRepository.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { type EmailListId, newUuid, type SubscriberId } from "../../domain/Ids.js"
import type { Subscriber } from "../../domain/Subscriber.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { anEmailList, aSubscriber, aTag, at, type MakeStorage } from "./fixtures.js"

const FIRST = newUuid()
const SECOND = newUuid()
const THIRD = newUuid()

/** A started automation of the list with a wait then two actions, ready to insert. */
const anAutomation = (emailListId: EmailListId, overrides: Partial<NewAutomation> = {}): NewAutomation => ({
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
const entryOf = (automation: Automation, overrides: Partial<Entry> = {}): Entry => ({
  automationId: automation.id,
  emailListId: automation.emailListId!,
  segment: null,
  rule: { _tag: "once" },
  actionUuid: FIRST,
  at: at(10),
  nextRunAt: at(20),
  ...overrides
})

const aList = Effect.flatMap(EmailListRepository, (lists) => Effect.map(lists.insert(anEmailList()), (list) => list.id))
const anAutomationOf = (emailListId: EmailListId, overrides: Partial<NewAutomation> = {}) =>
  Effect.flatMap(AutomationRepository, (automations) => automations.insert(anAutomation(emailListId, overrides)))
const subscribe = (emailListId: EmailListId, email: string, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
  Effect.flatMap(SubscriberRepository, (subscribers) => Effect.map(subscribers.insert(aSubscriber(emailListId, { email, ...overrides })), Option.getOrThrow))
const enter = (entry: Entry, subscribers: ReadonlyArray<Subscriber | number>) =>
  Effect.flatMap(AutomationRunRepository, (runs) =>
    Effect.map(runs.enterSubscribers(entry, subscribers.map((s) => (typeof s === "number" ? s : s.id) as SubscriberId)), (ids) => [...ids].sort((a, b) => a - b)))
const idsOf = (...subscribers: ReadonlyArray<Subscriber>) => subscribers.map((s) => s.id as number).sort((a, b) => a - b)
const claim = (now: Date, owner = "worker", leaseSeconds = 60, limit = 100) =>
  Effect.flatMap(AutomationRunRepository, (runs) =>
    Effect.map(runs.claim({ now, leaseUntil: new Date(now.getTime() + leaseSeconds * 1000), limit, owner }), (claimed) => [...claimed].sort((a, b) => a.id - b.id)))
const runOf = (claimed: ReadonlyArray<ClaimedRun>, subscriber: Subscriber) => claimed.find((run) => run.subscriberId === subscriber.id)!
/** Claims the due positions of the automation at `at(1000)` and ends the subscriber's: completed, or halted on its action. */
const end = (automation: Automation, subscriber: Subscriber, how: "Complete" | "Halt") =>
  Effect.gen(function*() {
    const runs = yield* AutomationRunRepository
    const claimed = yield* runs.claim({ now: at(1000), leaseUntil: at(1000), limit: 100, owner: "ender" })
    const run = claimed.find((r) => r.automationId === automation.id && r.subscriberId === subscriber.id)!
    yield* runs.apply([how === "Complete" ? { _tag: "Complete", id: run.id } : { _tag: "Halt", id: run.id, actionUuid: run.actionUuid, reason: "Halted by the test." }], [], at(1000))
  })
const listRuns = (automation: Automation, options: Parameters<typeof makeCollectionQuery<"entered_at", "state" | "action_uuid" | "subscriber_uuid", never>>[1] = {}) =>
  Effect.gen(function*() {
    const runs = yield* AutomationRunRepository
    return yield* runs.list(automation.id, yield* makeCollectionQuery(AutomationRunCollection, options))
  })
const countsOf = (automation: Automation) =>
  Effect.flatMap(AutomationRepository, (automations) => Effect.map(automations.actionCounts(automation.id), (counts) => Object.fromEntries(counts)))

/** AutomationRepository and AutomationRunRepository: automations, entry rules and audience, claims under a lease, steps. */
export const automationContract = (makeStorage: MakeStorage) =>
  describe("AutomationRepository and AutomationRunRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage())

    it.effect("stores automations with their trigger and actions, changes them, lists them sorted and filtered, and the started ones", () =>
      run(Effect.gen(function*() {
        const automations = yield* AutomationRepository
        const list = yield* aList
        const welcome = yield* anAutomationOf(list, { name: "Welcome" })
        const cart = yield* anAutomationOf(list, { name: "abandoned cart", status: "paused", startedAt: null, trigger: null, createdAt: at(5) })
        const birthday = yield* anAutomationOf(list, { name: "Birthday", createdAt: at(5), trigger: { type: "attribute_date", attribute: "birthday", offset_days: -1, yearly: true } })
        expect(Option.getOrThrow(yield* automations.findById(welcome.id))).toEqual(welcome)
        expect(Option.getOrThrow(yield* automations.findByUuid(birthday.uuid))).toEqual(birthday)
        expect(Option.isNone(yield* automations.findByUuid(newUuid() as AutomationUuid))).toBe(true)
        expect(welcome).toMatchObject({ status: "started", trigger: { type: "tag_added", tag: "vip" }, repeatEnabled: false, repeatOnlyAfterHalt: true, startedAt: at(0) })
        expect(welcome.placedActions.map((action) => action.uuid)).toEqual([FIRST, SECOND, THIRD])
        expect(cart).toMatchObject({ status: "paused", trigger: null, startedAt: null, triggerCursor: 0 })

        const changed = Option.getOrThrow(yield* automations.update(cart.id, { status: "started", startedAt: at(7), triggerNextAt: at(8), triggerCursor: 42, updatedAt: at(9) }))
        expect(changed).toMatchObject({ id: cart.id, uuid: cart.uuid, name: "abandoned cart", status: "started", startedAt: at(7), triggerNextAt: at(8), triggerCursor: 42, createdAt: at(5), updatedAt: at(9) })
        expect(Option.getOrThrow(yield* automations.findById(cart.id))).toEqual(changed)
        yield* automations.update(cart.id, { status: "paused", updatedAt: at(10) })
        expect(Option.isNone(yield* automations.update(9999 as Automation["id"], { name: "Nobody" }))).toBe(true)

        const names = (options: Parameters<typeof makeCollectionQuery<"name" | "created_at", "search" | "status", never>>[1]) =>
          Effect.flatMap(makeCollectionQuery(AutomationCollection, options), (query) =>
            Effect.map(automations.list(query), (page) => ({ total: page.total, names: page.items.map((a) => a.name) })))
        expect(yield* names({})).toEqual({ total: 3, names: ["abandoned cart", "Birthday", "Welcome"] })
        expect(yield* names({ sort: "-name" })).toEqual({ total: 3, names: ["Welcome", "Birthday", "abandoned cart"] })
        expect((yield* names({ sort: "created_at" })).names).toEqual(["Welcome", "abandoned cart", "Birthday"])
        expect((yield* names({ sort: "-created_at" })).names).toEqual(["Birthday", "abandoned cart", "Welcome"])
        expect((yield* names({ filters: { search: "CART" } })).names).toEqual(["abandoned cart"])
        expect((yield* names({ filters: { status: "started" } })).names).toEqual(["Birthday", "Welcome"])
        expect((yield* names({ filters: { status: "paused", search: "b" } })).names).toEqual(["abandoned cart"])
        expect(yield* names({ perPage: 2, page: 2 })).toEqual({ total: 3, names: ["Welcome"] })
        expect((yield* automations.started).map((a) => a.id)).toEqual([welcome.id, birthday.id])
      })))

    it.effect("counts each action's active and halted positions and the passes added to it", () =>
      run(Effect.gen(function*() {
        const automations = yield* AutomationRepository
        const runs = yield* AutomationRunRepository
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const other = yield* anAutomationOf(list, { name: "Other" })
        const [ann, bob, cid, dee] = [yield* subscribe(list, "ann@example.com"), yield* subscribe(list, "bob@example.com"), yield* subscribe(list, "cid@example.com"), yield* subscribe(list, "dee@example.com")]
        expect(yield* countsOf(automation)).toEqual({})
        yield* enter(entryOf(automation), [ann, bob, cid, dee])
        yield* enter(entryOf(other), [ann])
        expect(yield* countsOf(automation)).toEqual({ [FIRST]: { active: 4, completed: 0, halted: 0 } })
        const claimed = yield* claim(at(20))
        yield* runs.apply([
          { _tag: "Move", id: runOf(claimed.filter((r) => r.automationId === automation.id), ann).id, actionUuid: SECOND, nextRunAt: at(100) },
          { _tag: "Halt", id: runOf(claimed, bob).id, actionUuid: FIRST, reason: "The subscriber unsubscribed." },
          { _tag: "Complete", id: runOf(claimed, cid).id }
        ], [], at(30))
        yield* automations.countPasses(automation.id, new Map([[FIRST, 2]]))
        yield* automations.countPasses(automation.id, new Map([[FIRST, 1], [SECOND, 1]]))
        yield* automations.countPasses(other.id, new Map([[THIRD, 5]]))
        expect(yield* countsOf(automation)).toEqual({
          [FIRST]: { active: 1, completed: 3, halted: 1 },
          [SECOND]: { active: 1, completed: 1, halted: 0 }
        })
        expect(yield* countsOf(other)).toEqual({ [FIRST]: { active: 1, completed: 0, halted: 0 }, [THIRD]: { active: 0, completed: 5, halted: 0 } })
      })))

    it.effect("deleting an automation deletes its positions and counts, and only its own", () =>
      run(Effect.gen(function*() {
        const automations = yield* AutomationRepository
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const other = yield* anAutomationOf(list, { name: "Other" })
        const ann = yield* subscribe(list, "ann@example.com")
        yield* enter(entryOf(automation), [ann])
        yield* enter(entryOf(other), [ann])
        yield* automations.countPasses(automation.id, new Map([[FIRST, 1]]))
        yield* automations.countPasses(other.id, new Map([[FIRST, 1]]))
        expect(yield* automations.delete(automation.id)).toBe(true)
        expect(Option.isNone(yield* automations.findById(automation.id))).toBe(true)
        expect((yield* listRuns(automation)).total).toBe(0)
        expect(yield* countsOf(automation)).toEqual({})
        expect((yield* claim(at(20))).map((r) => r.automationId)).toEqual([other.id])
        expect((yield* listRuns(other)).total).toBe(1)
        expect(yield* countsOf(other)).toEqual({ [FIRST]: { active: 1, completed: 1, halted: 0 } })
        expect(yield* automations.delete(automation.id)).toBe(false)
      })))

    it.effect("enters only subscribed members of the entry's list who are in its segment, each once per call", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const otherList = yield* aList
        const vip = yield* Effect.flatMap(TagRepository, (tags) => Effect.map(tags.insertOrGet(aTag(list, { name: "vip" })), ({ tag }) => tag.id))
        const automation = yield* anAutomationOf(list)
        const segmented = yield* anAutomationOf(list, { name: "VIPs" })
        const ann = yield* subscribe(list, "ann@example.com")
        const gone = yield* subscribe(list, "gone@example.com", { unsubscribedAt: at(1) })
        const pending = yield* subscribe(list, "pending@example.com", { subscribedAt: null })
        const elsewhere = yield* subscribe(otherList, "elsewhere@example.com")
        const tagged = yield* subscribe(list, "tagged@example.com")
        yield* Effect.flatMap(SubscriberRepository, (subscribers) => subscribers.addTags(tagged.id, [vip]))
        expect(yield* enter(entryOf(automation), [ann, ann, gone, pending, elsewhere, tagged, 999_999])).toEqual(idsOf(ann, tagged))
        expect((yield* listRuns(automation)).total).toBe(2)
        const segment = { positive: [vip], negative: [], allPositive: false, allNegative: false }
        expect(yield* enter(entryOf(segmented, { segment }), [ann, gone, tagged])).toEqual(idsOf(tagged))
        const notVip = yield* anAutomationOf(list, { name: "Not VIPs" })
        expect(yield* enter(entryOf(notVip, { segment: { ...segment, positive: [], negative: [vip] } }), [ann, tagged])).toEqual(idsOf(ann))
        const ignoring = yield* anAutomationOf(otherList, { name: "Other list" })
        expect(yield* enter(entryOf(ignoring), [ann, elsewhere])).toEqual(idsOf(elsewhere))
        expect(yield* enter(entryOf(automation), [])).toEqual([])
      })))

    it.effect("entry rules: once never again, afterHalt when every earlier position was halted, again when not in it now", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const ann = yield* subscribe(list, "ann@example.com")
        const bob = yield* subscribe(list, "bob@example.com")
        const rule = (automation: Automation, r: EntryRule) => entryOf(automation, { rule: r })

        const once = yield* anAutomationOf(list, { name: "once" })
        expect(yield* enter(rule(once, { _tag: "once" }), [ann, bob])).toEqual(idsOf(ann, bob))
        expect(yield* enter(rule(once, { _tag: "once" }), [ann, bob])).toEqual([])
        yield* end(once, ann, "Complete")
        yield* end(once, bob, "Halt")
        expect(yield* enter(rule(once, { _tag: "once" }), [ann, bob])).toEqual([])

        const afterHalt = yield* anAutomationOf(list, { name: "afterHalt" })
        expect(yield* enter(rule(afterHalt, { _tag: "afterHalt" }), [ann, bob])).toEqual(idsOf(ann, bob))
        expect(yield* enter(rule(afterHalt, { _tag: "afterHalt" }), [ann, bob])).toEqual([])
        yield* end(afterHalt, ann, "Complete")
        yield* end(afterHalt, bob, "Halt")
        expect(yield* enter(rule(afterHalt, { _tag: "afterHalt" }), [ann, bob])).toEqual(idsOf(bob))
        yield* end(afterHalt, bob, "Halt")
        expect(yield* enter(rule(afterHalt, { _tag: "afterHalt" }), [ann, bob])).toEqual(idsOf(bob))

        const again = yield* anAutomationOf(list, { name: "again" })
        expect(yield* enter(rule(again, { _tag: "again" }), [ann, bob])).toEqual(idsOf(ann, bob))
        expect(yield* enter(rule(again, { _tag: "again" }), [ann, bob])).toEqual([])
        yield* end(again, ann, "Complete")
        yield* end(again, bob, "Halt")
        expect(yield* enter(rule(again, { _tag: "again" }), [ann, bob])).toEqual(idsOf(ann, bob))
        expect((yield* listRuns(again)).total).toBe(4)
      })))

    it.effect("entry rule occurrence: not in it now and not entered since the occurrence", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const ann = yield* subscribe(list, "ann@example.com")
        const bob = yield* subscribe(list, "bob@example.com")
        const automation = yield* anAutomationOf(list)
        const occurrence = (since: Date, when: Date) => entryOf(automation, { rule: { _tag: "occurrence", since }, at: when, nextRunAt: when })
        expect(yield* enter(occurrence(at(100), at(100)), [ann])).toEqual(idsOf(ann))
        expect(yield* enter(occurrence(at(100), at(150)), [ann, bob])).toEqual(idsOf(bob))
        yield* end(automation, ann, "Complete")
        yield* end(automation, bob, "Halt")
        expect(yield* enter(occurrence(at(100), at(160)), [ann, bob])).toEqual([])
        expect(yield* enter(occurrence(at(150), at(200)), [ann, bob])).toEqual(idsOf(ann))
        expect(yield* enter(occurrence(at(200), at(210)), [ann, bob])).toEqual(idsOf(bob))
        expect((yield* listRuns(automation)).total).toBe(4)
      })))

    it.effect("enters members in batches above a cursor and pages their attributes, whatever their status", () =>
      run(Effect.gen(function*() {
        const runs = yield* AutomationRunRepository
        const list = yield* aList
        const otherList = yield* aList
        const automation = yield* anAutomationOf(list)
        const ann = yield* subscribe(list, "ann@example.com", { extraAttributes: { birthday: "1990-05-01" } })
        yield* subscribe(otherList, "elsewhere@example.com", { extraAttributes: { birthday: "1980-01-01" } })
        const gone = yield* subscribe(list, "gone@example.com", { unsubscribedAt: at(1), extraAttributes: { birthday: "1970-12-24" } })
        const cid = yield* subscribe(list, "cid@example.com")
        const dee = yield* subscribe(list, "dee@example.com", { extraAttributes: { birthday: "2001-02-03", city: "Lyon" } })
        const entry = entryOf(automation, { rule: { _tag: "again" } })

        expect(yield* runs.enterMembers(entry, 0, 2)).toEqual({ covered: 2, lastSubscriberId: gone.id })
        expect((yield* listRuns(automation)).items.map((r) => r.subscriberUuid)).toEqual([ann.uuid])
        expect(yield* runs.enterMembers(entry, gone.id, 2)).toEqual({ covered: 2, lastSubscriberId: dee.id })
        expect(yield* runs.enterMembers(entry, dee.id, 2)).toEqual({ covered: 0, lastSubscriberId: dee.id })
        expect((yield* listRuns(automation)).items.map((r) => r.subscriberUuid).sort()).toEqual([ann.uuid, cid.uuid, dee.uuid].sort())
        expect(yield* runs.enterMembers(entry, 0, 10)).toEqual({ covered: 4, lastSubscriberId: dee.id })
        expect((yield* listRuns(automation)).total).toBe(3)

        const attributes = (afterSubscriberId: number, limit: number) =>
          Effect.map(runs.memberAttributes({ emailListId: list, attribute: "birthday", afterSubscriberId, limit }), (rows) =>
            rows.map((row) => ({ id: row.id, value: row.value ?? null })))
        expect(yield* attributes(0, 2)).toEqual([{ id: ann.id, value: "1990-05-01" }, { id: gone.id, value: "1970-12-24" }])
        expect(yield* attributes(gone.id, 2)).toEqual([{ id: cid.id, value: null }, { id: dee.id, value: "2001-02-03" }])
        expect(yield* attributes(dee.id, 2)).toEqual([])
      })))

    it.effect("claims due positions of started automations, earliest due first, under a lease only its owner holds", () =>
      run(Effect.gen(function*() {
        const automations = yield* AutomationRepository
        const runs = yield* AutomationRunRepository
        const { withTransaction } = yield* Transactor
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const paused = yield* anAutomationOf(list, { name: "Paused", status: "paused" })
        const ann = yield* subscribe(list, "ann@example.com")
        const bob = yield* subscribe(list, "bob@example.com")
        const cid = yield* subscribe(list, "cid@example.com")
        yield* enter(entryOf(automation, { at: at(1), nextRunAt: at(20) }), [ann])
        yield* enter(entryOf(automation, { at: at(2), nextRunAt: at(10) }), [bob, cid])
        yield* enter(entryOf(paused, { nextRunAt: at(5) }), [ann])

        expect(yield* claim(at(9))).toEqual([])
        const first = yield* claim(at(25), "one", 60, 2)
        expect(first.map((r) => r.subscriberId)).toEqual([bob.id, cid.id])
        expect(runOf(first, bob)).toEqual({ id: runOf(first, bob).id, runId: runOf(first, bob).id, automationId: automation.id, subscriberId: bob.id, actionUuid: FIRST, enteredAt: at(2), arrivedAt: at(2) })
        const second = yield* claim(at(30), "two", 60, 1)
        expect(second.map((r) => r.subscriberId)).toEqual([ann.id])
        expect(yield* claim(at(84), "three")).toEqual([])
        const third = yield* claim(at(86), "three")
        expect(third.map((r) => r.subscriberId)).toEqual([bob.id, cid.id])

        const ids = [...first, ...second].map((r) => r.id)
        expect(yield* withTransaction(runs.hold(ids, "one"))).toEqual(new Set())
        expect(yield* withTransaction(runs.hold(ids, "two"))).toEqual(new Set([runOf(second, ann).id]))
        expect(yield* withTransaction(runs.hold(ids, "three"))).toEqual(new Set(third.map((r) => r.id)))
        expect(yield* withTransaction(runs.hold([], "three"))).toEqual(new Set())

        yield* automations.update(paused.id, { status: "started" })
        expect((yield* claim(at(87))).map((r) => r.automationId)).toEqual([paused.id])
      })))

    it.effect("applies moves, rechecks, completions, halts and forks, freeing the leases", () =>
      run(Effect.gen(function*() {
        const runs = yield* AutomationRunRepository
        const { withTransaction } = yield* Transactor
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const ann = yield* subscribe(list, "ann@example.com")
        const bob = yield* subscribe(list, "bob@example.com")
        yield* enter(entryOf(automation, { at: at(10), nextRunAt: at(10) }), [ann, bob])
        const claimed = yield* claim(at(10), "worker", 600)
        const annRun = runOf(claimed, ann)
        const bobRun = runOf(claimed, bob)

        yield* runs.apply([{ _tag: "Move", id: annRun.id, actionUuid: SECOND, nextRunAt: at(30) }], [], at(20))
        expect(yield* withTransaction(runs.hold([annRun.id, bobRun.id], "worker"))).toEqual(new Set([bobRun.id]))
        expect(yield* claim(at(29))).toEqual([])
        const moved = yield* claim(at(30))
        expect(moved).toEqual([{ ...annRun, actionUuid: SECOND, arrivedAt: at(20) }])

        yield* runs.apply([{ _tag: "Recheck", id: annRun.id, nextRunAt: at(200) }], [], at(35))
        expect(yield* claim(at(199))).toEqual([])
        expect(yield* claim(at(200))).toEqual([{ ...annRun, actionUuid: SECOND, arrivedAt: at(20) }])

        yield* runs.apply([{ _tag: "Halt", id: annRun.id, actionUuid: THIRD, reason: "The subscriber left the automation's segment." }], [], at(210))
        yield* runs.apply([{ _tag: "Move", id: bobRun.id, actionUuid: SECOND, nextRunAt: at(300) }], [
          { automationId: automation.id, runId: bobRun.runId, subscriberId: bob.id, enteredAt: bobRun.enteredAt, actionUuid: THIRD, nextRunAt: at(300) }
        ], at(220))
        const forked = yield* claim(at(300))
        expect(forked).toEqual([
          { ...bobRun, actionUuid: SECOND, arrivedAt: at(220) },
          { id: forked[1]!.id, runId: bobRun.runId, automationId: automation.id, subscriberId: bob.id, actionUuid: THIRD, enteredAt: at(10), arrivedAt: at(220) }
        ])
        expect(forked[1]!.id).not.toBe(bobRun.id)
        yield* runs.apply([{ _tag: "Complete", id: bobRun.id }], [], at(310))
        expect(yield* claim(at(10_000))).toEqual([{ ...forked[1]!, arrivedAt: at(220) }])

        const listed = (yield* listRuns(automation)).items.map((r) => ({ subscriberUuid: r.subscriberUuid, actionUuid: r.actionUuid, state: r.state, nextRunAt: r.nextRunAt }))
        expect(listed).toEqual([
          { subscriberUuid: ann.uuid, actionUuid: THIRD, state: "halted", nextRunAt: null },
          { subscriberUuid: bob.uuid, actionUuid: SECOND, state: "completed", nextRunAt: null },
          { subscriberUuid: bob.uuid, actionUuid: THIRD, state: "active", nextRunAt: at(10_060) }
        ])
      })))

    it.effect("halts the active positions on removed actions", () =>
      run(Effect.gen(function*() {
        const runs = yield* AutomationRunRepository
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const other = yield* anAutomationOf(list, { name: "Other" })
        const [ann, bob, cid] = [yield* subscribe(list, "ann@example.com"), yield* subscribe(list, "bob@example.com"), yield* subscribe(list, "cid@example.com")]
        yield* enter(entryOf(automation), [ann, bob, cid])
        yield* enter(entryOf(other), [ann])
        const claimed = (yield* claim(at(20))).filter((r) => r.automationId === automation.id)
        yield* runs.apply([
          { _tag: "Move", id: runOf(claimed, bob).id, actionUuid: SECOND, nextRunAt: at(100) },
          { _tag: "Complete", id: runOf(claimed, cid).id }
        ], [], at(30))
        expect(yield* runs.haltRemoved(automation.id, [SECOND, THIRD], at(40))).toBe(1)
        const states = (page: { readonly items: ReadonlyArray<{ readonly subscriberUuid: string | null; readonly state: string; readonly nextRunAt: Date | null }> }) =>
          page.items.map((r) => [r.subscriberUuid, r.state, r.nextRunAt])
        expect(states(yield* listRuns(automation))).toEqual([[ann.uuid, "halted", null], [bob.uuid, "active", at(100)], [cid.uuid, "completed", null]])
        expect(yield* runs.haltRemoved(automation.id, [], at(50))).toBe(1)
        expect(states(yield* listRuns(automation))).toEqual([[ann.uuid, "halted", null], [bob.uuid, "halted", null], [cid.uuid, "completed", null]])
        expect(states(yield* listRuns(other))).toEqual([[ann.uuid, "active", at(80)]])
      })))

    it.effect("lists an automation's positions by entry, filtered by state, action and subscriber, paged", () =>
      run(Effect.gen(function*() {
        const runs = yield* AutomationRunRepository
        const list = yield* aList
        const automation = yield* anAutomationOf(list)
        const ann = yield* subscribe(list, "ann@example.com")
        const bob = yield* subscribe(list, "bob@example.com")
        const cid = yield* subscribe(list, "cid@example.com")
        yield* enter(entryOf(automation, { at: at(30), nextRunAt: at(500) }), [ann])
        yield* enter(entryOf(automation, { at: at(20), nextRunAt: at(20) }), [bob])
        yield* enter(entryOf(automation, { at: at(10), nextRunAt: at(500) }), [cid])
        const [bobRun] = yield* claim(at(20))
        yield* runs.apply([{ _tag: "Halt", id: bobRun!.id, actionUuid: SECOND, reason: "The subscriber unsubscribed." }], [], at(25))
        const uuids = (page: { readonly items: ReadonlyArray<{ readonly subscriberUuid: string | null }> }) => page.items.map((r) => r.subscriberUuid)

        const all = yield* listRuns(automation)
        expect(all.total).toBe(3)
        expect(all.items[0]).toEqual({ subscriberUuid: cid.uuid, actionUuid: FIRST, state: "active", enteredAt: at(10), nextRunAt: at(500) })
        expect(uuids(all)).toEqual([cid.uuid, bob.uuid, ann.uuid])
        expect(uuids(yield* listRuns(automation, { sort: "-entered_at" }))).toEqual([ann.uuid, bob.uuid, cid.uuid])
        expect(yield* listRuns(automation, { filters: { state: "halted" } })).toEqual({
          total: 1,
          items: [{ subscriberUuid: bob.uuid, actionUuid: SECOND, state: "halted", enteredAt: at(20), nextRunAt: null }]
        })
        expect(uuids(yield* listRuns(automation, { filters: { action_uuid: FIRST } }))).toEqual([cid.uuid, ann.uuid])
        expect(uuids(yield* listRuns(automation, { filters: { subscriber_uuid: ann.uuid, state: "active" } }))).toEqual([ann.uuid])
        expect(uuids(yield* listRuns(automation, { filters: { subscriber_uuid: ann.uuid, state: "completed" } }))).toEqual([])
        const second = yield* listRuns(automation, { perPage: 2, page: 2 })
        expect({ total: second.total, uuids: uuids(second) }).toEqual({ total: 3, uuids: [ann.uuid] })

        yield* Effect.flatMap(SubscriberRepository, (subscribers) => subscribers.delete(cid.id))
        expect(uuids(yield* listRuns(automation))).toEqual([null, bob.uuid, ann.uuid])
      })))

    it.effect("gives the runner's facts of existing subscribers: status, list, attributes and tags", () =>
      run(Effect.gen(function*() {
        const runs = yield* AutomationRunRepository
        const list = yield* aList
        const tagIds = yield* Effect.flatMap(TagRepository, (tags) =>
          Effect.forEach(["vip", "beta"], (name) => Effect.map(tags.insertOrGet(aTag(list, { name })), ({ tag }) => tag.id)))
        const ann = yield* subscribe(list, "ann@example.com", { extraAttributes: { city: "Lyon" } })
        const gone = yield* subscribe(list, "gone@example.com", { unsubscribedAt: at(1) })
        yield* Effect.flatMap(SubscriberRepository, (subscribers) => subscribers.addTags(ann.id, tagIds))
        const facts = [...(yield* runs.facts([ann.id, gone.id, 999_999 as SubscriberId]))].sort((a, b) => a.id - b.id)
        expect(facts.map((f) => ({ ...f, tagIds: [...f.tagIds].sort((a, b) => a - b), tagNames: [...f.tagNames].sort() }))).toEqual([
          { id: ann.id, uuid: ann.uuid, email: ann.email, emailListId: list, subscribed: true, extraAttributes: { city: "Lyon" }, tagIds: [...tagIds].sort((a, b) => a - b), tagNames: ["beta", "vip"] },
          { id: gone.id, uuid: gone.uuid, email: gone.email, emailListId: list, subscribed: false, extraAttributes: {}, tagIds: [], tagNames: [] }
        ])
        expect(yield* runs.facts([])).toEqual([])
      })))
  })
