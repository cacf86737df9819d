import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UNSUBSCRIBED_REASON } from "../../domain/ImportDecision.js"
import { ImportBatchRepository } from "../../ports/ImportBatchRepository.js"
import { SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { at, type MakeStorage } from "./fixtures.js"
import { aBatch, importFixtures } from "./importFixtures.js"

const FULL_HEADER = "email,first_name,last_name,tags,subscribed_at,unsubscribed_at,company"

/** ImportBatchRepository conformance: what one batch writes (subscribers, tags, counters, refusals, progress) and when. */
export const importBatchContract = (makeStorage: MakeStorage) =>
  describe("ImportBatchRepository", () => {
    const { aList, errors, found, importing, insertImport, isMember, member, run, statusCounts, subscribe, tagCounts, tagsOf, write } =
      importFixtures(makeStorage)

    it.effect("inserts new addresses into the batch's list with their fields, subscribed unless unsubscribed_at says otherwise", () =>
      run(Effect.gen(function*() {
        const [one, two] = [yield* aList, yield* aList]
        yield* subscribe(two, { email: "ada@example.com", firstName: "Other" })
        const subscriberImport = yield* importing(one)
        const { written } = yield* write(subscriberImport, [
          " Ada@Example.com ,Ada,Lovelace,,2025-06-01,,Acme",
          "grace@example.com,,,,,,",
          "gone@example.com,Gone,,,2025-01-01,2025-02-01 10:00:00,"
        ], { header: FULL_HEADER, at: at(100) })
        expect(written).toEqual(Option.some({ rejected: 0 }))

        const ada = yield* member(one, "ada@example.com")
        expect(ada).toMatchObject({
          emailListId: one,
          firstName: "Ada",
          lastName: "Lovelace",
          extraAttributes: { company: "Acme" },
          tags: []
        })
        expect(ada.subscribedAt).toEqual(new Date("2025-06-01T00:00:00Z"))
        expect(ada.unsubscribedAt).toBeNull()
        expect(ada.createdAt).toEqual(at(100))
        expect(ada.updatedAt).toEqual(at(100))
        expect(Option.getOrThrow(yield* Effect.flatMap(SubscriberRepository, (r) => r.findById(ada.id)))).toEqual(ada)
        const grace = yield* member(one, "grace@example.com")
        expect(grace).toMatchObject({ firstName: null, lastName: null, extraAttributes: {}, unsubscribedAt: null })
        expect(grace.subscribedAt).toEqual(at(100))
        const gone = yield* member(one, "gone@example.com")
        expect(gone.subscribedAt).toEqual(new Date("2025-01-01T00:00:00Z"))
        expect(gone.unsubscribedAt).toEqual(new Date("2025-02-01T10:00:00Z"))
        expect(yield* statusCounts(one)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 1 })

        expect((yield* member(two, "ada@example.com")).firstName).toBe("Other")
        expect(yield* statusCounts(two)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 0 })
      })))

    it.effect("numbers new subscribers after every earlier one, deleted ones included, and in the file's order", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "kept@example.com" })
        const gone = yield* subscribe(list, { email: "gone@example.com" })
        expect(yield* Effect.flatMap(SubscriberRepository, (r) => r.delete(gone.id))).toBe(true)
        yield* write(yield* importing(list), ["zed@example.com", "amy@example.com", "kept@example.com", "bob@example.com"])
        const ids: Array<number> = []
        for (const email of ["zed@example.com", "amy@example.com", "bob@example.com"]) ids.push((yield* member(list, email)).id)
        expect(ids[0]).toBeGreaterThan(gone.id)
        expect([...ids].sort((a, b) => a - b)).toEqual(ids)
        expect(new Set(ids).size).toBe(3)
      })))

    it.effect("moves the import's progress, error count and lease with each batch", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const subscriberImport = yield* importing(list, { lockedUntil: at(60) })
        const first = yield* write(subscriberImport, ["a@example.com", "not-an-email", "b@example.com"], {
          at: at(100),
          leaseUntil: at(130)
        })
        expect(first.written).toEqual(Option.some({ rejected: 1 }))
        expect(first.after).toMatchObject({ status: "importing", processedRows: 3, importedSubscribersCount: 3, errorCount: 1 })
        expect(first.after.lockedUntil).toEqual(at(130))

        const second = yield* write(first.after, ["c@example.com", "", "d@example.com"], { at: at(120), leaseUntil: at(160) })
        expect(second.written).toEqual(Option.some({ rejected: 1 }))
        expect(second.after).toMatchObject({
          id: subscriberImport.id,
          uuid: subscriberImport.uuid,
          emailListId: list,
          status: "importing",
          processedRows: 6,
          importedSubscribersCount: 6,
          errorCount: 2,
          csvLength: subscriberImport.csvLength,
          failureReason: null,
          finishedAt: null
        })
        expect(second.after.lockedUntil).toEqual(at(160))
        expect(second.after.startedAt).toEqual(subscriberImport.startedAt)
        expect(second.after.createdAt).toEqual(subscriberImport.createdAt)
        expect(Option.isNone(yield* repo.claim(at(150), at(210)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.claim(at(161), at(221))).id).toBe(subscriberImport.id)
        expect(yield* statusCounts(list)).toEqual({ subscribed: 4, unconfirmed: 0, unsubscribed: 0 })
      })))

    it.effect("writes nothing when the import is not importing at the batch's starting point", () =>
      run(Effect.gen(function*() {
        const imports = yield* SubscriberImportRepository
        const batches = yield* ImportBatchRepository
        const list = yield* aList
        const subscriberImport = yield* importing(list, { lockedUntil: at(60) })
        const { after } = yield* write(subscriberImport, ["a@example.com,A,,vip"])
        const late = ["b@example.com,B,,news", "bad", "a@example.com,Changed,,news"]

        expect(Option.isNone((yield* write(subscriberImport, late, { leaseUntil: at(900) })).written)).toBe(true)
        expect(Option.isNone((yield* write(after, late, { processedBefore: 5, leaseUntil: at(900) })).written)).toBe(true)
        expect(yield* found(subscriberImport.id)).toEqual(after)
        const others = []
        for (const status of ["draft", "pending", "completed", "failed"] as const) {
          const other = yield* insertImport(list, { status })
          expect(Option.isNone(yield* batches.write(aBatch(other, late))), status).toBe(true)
          expect(yield* found(other.id)).toEqual(other)
          others.push(other)
        }
        const deleted = yield* importing(list)
        expect(yield* imports.delete(deleted.id)).toBe(true)
        expect(Option.isNone(yield* batches.write(aBatch(deleted, late)))).toBe(true)
        expect(Option.isNone(yield* imports.findById(deleted.id))).toBe(true)

        expect(yield* isMember(list, "b@example.com")).toBe(false)
        expect((yield* member(list, "a@example.com")).firstName).toBe("A")
        expect(yield* statusCounts(list)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 0 })
        expect(yield* tagCounts(list)).toEqual({ vip: 1 })
        for (const id of [subscriberImport.id, deleted.id, ...others.map((o) => o.id)]) expect((yield* errors(id)).total).toBe(0)
      })))

    it.effect("lets only one of two workers writing the same batch at once through, so rows are written once", () =>
      run(Effect.gen(function*() {
        const batches = yield* ImportBatchRepository
        const list = yield* aList
        const subscriberImport = yield* importing(list)
        const batch = aBatch(subscriberImport, ["a@example.com,,,vip", "b@example.com,,,vip", "bad"])
        const results = yield* Effect.all([batches.write(batch), batches.write(batch)], { concurrency: "unbounded" })
        expect(results.filter(Option.isSome)).toEqual([Option.some({ rejected: 1 })])
        expect(yield* found(subscriberImport.id)).toMatchObject({ processedRows: 3, errorCount: 1 })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 0 })
        expect(yield* tagCounts(list)).toEqual({ vip: 2 })
        expect((yield* errors(subscriberImport.id)).total).toBe(1)
      })))

    it.effect("stores the batch's refused rows and the rule's refusals, listed by line and in pages, per import", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "gone@example.com", unsubscribedAt: at(1) })
        const subscriberImport = yield* importing(list)
        const header = "email,first_name,last_name,tags,subscribed_at"
        const first = yield* write(subscriberImport, [
          "ok@example.com",
          "bad",
          "gone@example.com,,,vip",
          ",Nobody",
          "x@example.com,,,news,not-a-date"
        ], { header })
        expect(first.written).toEqual(Option.some({ rejected: 4 }))
        yield* write(first.after, ["bad2@", "fine@example.com"], { header })
        yield* write(yield* importing(list), ["worse"])

        const refused = [
          { line: 3, email: "bad", reason: "The email is not a valid address." },
          { line: 4, email: "gone@example.com", reason: UNSUBSCRIBED_REASON },
          { line: 5, email: null, reason: "The email is missing." },
          { line: 6, email: "x@example.com", reason: "The subscribed_at value is not a valid date." },
          { line: 7, email: "bad2@", reason: "The email is not a valid address." }
        ]
        expect(yield* errors(subscriberImport.id)).toEqual({ total: 5, rows: refused })
        expect(yield* errors(subscriberImport.id, { sort: "-line" })).toEqual({ total: 5, rows: [...refused].reverse() })
        expect(yield* errors(subscriberImport.id, { perPage: 2, page: 2 })).toEqual({ total: 5, rows: refused.slice(2, 4) })
        expect((yield* found(subscriberImport.id)).errorCount).toBe(5)
        expect(yield* isMember(list, "fine@example.com")).toBe(true)
        expect(yield* isMember(list, "x@example.com")).toBe(false)
        expect(yield* statusCounts(list)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 1 })
        expect(yield* tagCounts(list)).toEqual({})
      })))

    it.effect("writes a large batch in full: every row, tag link, refusal and counter", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "user0500@example.com", firstName: "Existing", subscribedAt: null })
        const lines = Array.from({ length: 2_600 }, (_, i) =>
          i % 5 === 4 ? `bad${i}` : `user${String(i).padStart(4, "0")}@example.com,N${i},,bulk`)
        const subscriberImport = yield* importing(list)
        const { after, written } = yield* write(subscriberImport, lines)
        expect(written).toEqual(Option.some({ rejected: 520 }))
        expect(after).toMatchObject({ processedRows: 2_600, importedSubscribersCount: 2_600, errorCount: 520 })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 2_080, unconfirmed: 0, unsubscribed: 0 })
        expect(yield* tagCounts(list)).toEqual({ bulk: 2_080 })
        expect(yield* member(list, "user0500@example.com")).toMatchObject({ firstName: "N500", tags: ["bulk"] })
        expect(yield* member(list, "user2598@example.com")).toMatchObject({ firstName: "N2598", tags: ["bulk"] })
        const last = yield* errors(subscriberImport.id, { perPage: 100, page: 6 })
        expect(last.total).toBe(520)
        expect(last.rows.map((row) => row.email)).toEqual(Array.from({ length: 20 }, (_, i) => `bad${2_504 + i * 5}`))
      })))

    it.effect("skips an address the import already wrote, within a batch or in a later one", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "c@example.com", firstName: "Old" })
        const subscriberImport = yield* importing(list)
        const first = yield* write(subscriberImport, [
          "a@example.com,Ada,,one",
          "b@example.com,Bea",
          "A@example.com,Second,,two",
          "c@example.com,New",
          "c@example.com,Newer,,two"
        ])
        expect(first.written).toEqual(Option.some({ rejected: 0 }))
        const second = yield* write(first.after, ["b@example.com,Again,,two", "c@example.com,Again"])
        expect(second.written).toEqual(Option.some({ rejected: 0 }))
        expect(second.after).toMatchObject({ processedRows: 7, errorCount: 0 })

        expect(yield* member(list, "a@example.com")).toMatchObject({ firstName: "Ada", tags: ["one"] })
        expect(yield* member(list, "b@example.com")).toMatchObject({ firstName: "Bea", tags: [] })
        expect(yield* member(list, "c@example.com")).toMatchObject({ firstName: "New", tags: [] })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 3, unconfirmed: 0, unsubscribed: 0 })
        expect(yield* tagCounts(list)).toEqual({ one: 1 })
        expect((yield* errors(subscriberImport.id)).total).toBe(0)

        const later = yield* importing(list)
        yield* write(later, ["a@example.com,Later"])
        expect((yield* member(list, "a@example.com")).firstName).toBe("Later")
      })))

    it.effect("attaches tags, reusing the list's tags whatever their case and creating the missing ones", () =>
      run(Effect.gen(function*() {
        const tags = yield* TagRepository
        const [one, two] = [yield* aList, yield* aList]
        yield* tagsOf(one, "VIP")
        yield* tagsOf(two, "news")
        yield* subscribe(one, { email: "old@example.com" })
        const subscriberImport = yield* importing(one)
        yield* write(subscriberImport, [
          "a@example.com,,,vip;News",
          "b@example.com,,,news|Beta",
          "c@example.com,,,",
          "old@example.com,,,beta"
        ], { at: at(100) })

        expect((yield* member(one, "a@example.com")).tags).toEqual(["News", "VIP"])
        expect((yield* member(one, "b@example.com")).tags).toEqual(["Beta", "News"])
        expect((yield* member(one, "c@example.com")).tags).toEqual([])
        expect((yield* member(one, "old@example.com")).tags).toEqual(["Beta"])
        expect(yield* tagCounts(one)).toEqual({ Beta: 2, News: 2, VIP: 1 })
        const created = yield* tags.findByRefs(one, ["news", "beta"])
        expect(created.map((tag) => tag.type)).toEqual(["default", "default"])
        expect(created.every((tag) => tag.createdAt.getTime() === at(100).getTime())).toBe(true)
        expect(yield* tagCounts(two)).toEqual({ news: 0 })
      })))

    it.effect("adds tags to the ones a subscriber has, or replaces them when the import says so", () =>
      run(Effect.gen(function*() {
        const subscribers = yield* SubscriberRepository
        const list = yield* aList
        const [old, keep] = yield* tagsOf(list, "old", "keep")
        const x = yield* subscribe(list, { email: "x@example.com" })
        const y = yield* subscribe(list, { email: "y@example.com" })
        const z = yield* subscribe(list, { email: "z@example.com" })
        yield* subscribers.addTags(x.id, [old!, keep!])
        yield* subscribers.addTags(y.id, [old!])
        yield* subscribers.addTags(z.id, [old!])

        yield* write(yield* importing(list), ["x@example.com,,,new;keep"])
        expect((yield* member(list, "x@example.com")).tags).toEqual(["keep", "new", "old"])
        expect(yield* tagCounts(list)).toEqual({ keep: 1, new: 1, old: 3 })

        const replacing = yield* importing(list, { replaceTags: true })
        yield* write(replacing, ["y@example.com,,,new;keep", "z@example.com,,,", "fresh@example.com,,,old"])
        expect((yield* member(list, "x@example.com")).tags).toEqual(["keep", "new", "old"])
        expect((yield* member(list, "y@example.com")).tags).toEqual(["keep", "new"])
        expect((yield* member(list, "z@example.com")).tags).toEqual([])
        expect((yield* member(list, "fresh@example.com")).tags).toEqual(["old"])
        expect(yield* tagCounts(list)).toEqual({ keep: 2, new: 2, old: 2 })
      })))
  })
