import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Automation } from "../../automations/Automation.js"
import { AutomationRepository } from "../../automations/AutomationRepository.js"
import { AutomationRunRepository, type EntryRule } from "../../automations/AutomationRunRepository.js"
import { type SubscriberId } from "../../domain/Ids.js"

import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { aTag, at, type MakeStorage } from "./fixtures.js"
import { FIRST, SECOND, THIRD, entryOf, aList, anAutomationOf, subscribe, enter, idsOf, claim, runOf, end, listRuns } from "./automationFixtures.js"
/** AutomationRunRepository: entry rules and audience, claims under a lease, steps, listing and facts. */
export const automationRunContract = (makeStorage: MakeStorage) =>
  describe("AutomationRunRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage())

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
