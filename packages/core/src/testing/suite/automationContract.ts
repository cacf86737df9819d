import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Automation } from "../../automations/Automation.js"
import { AutomationCollection } from "../../automations/AutomationCollections.js"
import type { AutomationUuid } from "../../automations/AutomationIds.js"
import { AutomationRepository } from "../../automations/AutomationRepository.js"
import { AutomationRunRepository } from "../../automations/AutomationRunRepository.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { newUuid } from "../../domain/Ids.js"

import type { Storage } from "../../usecases/Mailroom.js"
import { at, type MakeStorage } from "./fixtures.js"
import { FIRST, SECOND, THIRD, entryOf, aList, anAutomationOf, subscribe, enter, claim, runOf, listRuns, countsOf } from "./automationFixtures.js"
/** AutomationRepository: automations, their action counts, deletion with their positions. */
export const automationContract = (makeStorage: MakeStorage) =>
  describe("AutomationRepository", () => {
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
  })
