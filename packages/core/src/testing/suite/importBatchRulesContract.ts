import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UNSUBSCRIBED_REASON } from "../../domain/ImportDecision.js"
import { ImportBatchRepository } from "../../ports/ImportBatchRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { at, type MakeStorage } from "./fixtures.js"
import { importFixtures } from "./importFixtures.js"

const HEADER = "email,first_name,last_name,tags,subscribed_at,unsubscribed_at"
const june = new Date("2025-06-01T00:00:00Z")

/** ImportBatchRepository conformance for members already on the list: the import rules, and unsubscribing the others. */
export const importBatchRulesContract = (makeStorage: MakeStorage) =>
  describe("ImportBatchRepository rules", () => {
    const { aList, errors, found, importing, member, run, statusCounts, subscribe, write } = importFixtures(makeStorage)

    it.effect("updates a subscribed member: names replaced when given, attributes merged, subscription kept", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const ada = yield* subscribe(list, {
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Lovelace",
          extraAttributes: { company: "Acme", score: 4 },
          subscribedAt: at(1)
        })
        const { written } = yield* write(yield* importing(list), ["ADA@example.com,Augusta,,,2025-06-01,,Babbage,London"], {
          header: `${HEADER},company,city`,
          at: at(100)
        })
        expect(written).toEqual(Option.some({ rejected: 0 }))
        const updated = yield* member(list, "ada@example.com")
        expect(updated).toMatchObject({
          id: ada.id,
          uuid: ada.uuid,
          firstName: "Augusta",
          lastName: "Lovelace",
          extraAttributes: { company: "Babbage", score: 4, city: "London" },
          unsubscribedAt: null
        })
        expect(updated.subscribedAt).toEqual(at(1))
        expect(updated.createdAt).toEqual(ada.createdAt)
        expect(updated.updatedAt).toEqual(at(100))
        const search = (text: string) => Effect.flatMap(SubscriberRepository, (r) => r.count({ emailListId: list, search: text }))
        expect([yield* search("augusta"), yield* search("lovelace")]).toEqual([1, 1])
        expect(yield* statusCounts(list)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 0 })
      })))

    it.effect("subscribes an unconfirmed member at the row's subscribed_at, else at the batch time", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "u1@example.com", subscribedAt: null })
        yield* subscribe(list, { email: "u2@example.com", subscribedAt: null })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 0, unconfirmed: 2, unsubscribed: 0 })
        yield* write(yield* importing(list), ["u1@example.com,,,,2025-06-01", "u2@example.com"], { header: HEADER, at: at(100) })
        expect((yield* member(list, "u1@example.com")).subscribedAt).toEqual(june)
        expect((yield* member(list, "u2@example.com")).subscribedAt).toEqual(at(100))
        expect(yield* statusCounts(list)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 0 })
      })))

    it.effect("refuses an unsubscribed member unless the import may subscribe it again, which it then does", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const gone = yield* subscribe(list, { email: "gone1@example.com", subscribedAt: at(1), unsubscribedAt: at(2) })
        yield* subscribe(list, { email: "gone2@example.com", subscribedAt: at(1), unsubscribedAt: at(2) })

        const strict = yield* importing(list)
        const refused = yield* write(strict, ["gone1@example.com,New,,vip", "fresh@example.com"], { header: HEADER })
        expect(refused.written).toEqual(Option.some({ rejected: 1 }))
        expect(refused.after.errorCount).toBe(1)
        expect((yield* errors(strict.id)).rows).toEqual([{ line: 2, email: "gone1@example.com", reason: UNSUBSCRIBED_REASON }])
        expect(yield* member(list, "gone1@example.com")).toEqual(gone)
        expect(yield* statusCounts(list)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 2 })

        const lenient = yield* importing(list, { subscribeUnsubscribed: true })
        const back = yield* write(lenient, ["gone1@example.com,Back,,,2025-06-01", "gone2@example.com"], { header: HEADER, at: at(100) })
        expect(back.written).toEqual(Option.some({ rejected: 0 }))
        const again = yield* member(list, "gone1@example.com")
        expect(again).toMatchObject({ firstName: "Back", unsubscribedAt: null })
        expect(again.subscribedAt).toEqual(june)
        expect((yield* member(list, "gone2@example.com")).subscribedAt).toEqual(at(100))
        expect((yield* member(list, "gone2@example.com")).unsubscribedAt).toBeNull()
        expect(yield* statusCounts(list)).toEqual({ subscribed: 3, unconfirmed: 0, unsubscribed: 0 })
        expect((yield* errors(lenient.id)).total).toBe(0)
      })))

    it.effect("refuses a repeated unsubscribed address once: its later rows in the import are skipped", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const gone = yield* subscribe(list, { email: "twice@example.com", unsubscribedAt: at(2) })
        const subscriberImport = yield* importing(list)
        const first = yield* write(subscriberImport, ["twice@example.com", "keep@example.com", "Twice@example.com"])
        expect(first.written).toEqual(Option.some({ rejected: 1 }))
        const second = yield* write(first.after, ["twice@example.com,Again"])
        expect(second.written).toEqual(Option.some({ rejected: 0 }))
        expect(second.after).toMatchObject({ processedRows: 4, errorCount: 1 })
        expect((yield* errors(subscriberImport.id)).rows).toEqual([{ line: 2, email: "twice@example.com", reason: UNSUBSCRIBED_REASON }])
        expect(yield* member(list, "twice@example.com")).toEqual(gone)
        expect(yield* statusCounts(list)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 1 })
      })))

    it.effect("honours unsubscribed_at: the address is stored unsubscribed, an unsubscribed member keeping its dates", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        yield* subscribe(list, { email: "sub@example.com", subscribedAt: at(1) })
        yield* subscribe(list, { email: "unconfirmed@example.com", subscribedAt: null })
        yield* subscribe(list, { email: "gone@example.com", subscribedAt: at(1), unsubscribedAt: at(2) })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 1, unconfirmed: 1, unsubscribed: 1 })
        const { written } = yield* write(yield* importing(list), [
          "sub@example.com,,,,,2025-06-01",
          "unconfirmed@example.com,,,,,2025-06-01",
          "gone@example.com,Named,,,,2025-06-01"
        ], { header: HEADER, at: at(100) })
        expect(written).toEqual(Option.some({ rejected: 0 }))

        const sub = yield* member(list, "sub@example.com")
        expect([sub.subscribedAt, sub.unsubscribedAt]).toEqual([at(1), june])
        const unconfirmed = yield* member(list, "unconfirmed@example.com")
        expect([unconfirmed.subscribedAt, unconfirmed.unsubscribedAt]).toEqual([at(100), june])
        const gone = yield* member(list, "gone@example.com")
        expect([gone.subscribedAt, gone.unsubscribedAt, gone.firstName]).toEqual([at(1), at(2), "Named"])
        expect(yield* statusCounts(list)).toEqual({ subscribed: 0, unconfirmed: 0, unsubscribed: 3 })
      })))

    it.effect("unsubscribes the list's subscribed members the import did not write, and says how many", () =>
      run(Effect.gen(function*() {
        const batches = yield* ImportBatchRepository
        const [one, two] = [yield* aList, yield* aList]
        for (const email of ["kept@example.com", "other@example.com", "by-other@example.com"]) yield* subscribe(one, { email })
        yield* subscribe(one, { email: "unconfirmed@example.com", subscribedAt: null })
        yield* subscribe(one, { email: "gone@example.com", unsubscribedAt: at(2) })
        yield* subscribe(two, { email: "elsewhere@example.com" })
        yield* write(yield* importing(one), ["by-other@example.com"])
        const subscriberImport = yield* importing(one, { unsubscribeOthers: true })
        yield* write(subscriberImport, ["kept@example.com", "new@example.com", "unconfirmed@example.com,,,,,2025-06-01"], {
          header: HEADER
        })
        expect(yield* statusCounts(one)).toEqual({ subscribed: 4, unconfirmed: 0, unsubscribed: 2 })

        expect(yield* batches.unsubscribeOthers(subscriberImport.id, one, at(200))).toBe(2)
        for (const email of ["other@example.com", "by-other@example.com"]) {
          const left = yield* member(one, email)
          expect([left.subscribedAt, left.unsubscribedAt, left.updatedAt]).toEqual([at(0), at(200), at(200)])
        }
        for (const email of ["kept@example.com", "new@example.com"]) expect((yield* member(one, email)).unsubscribedAt).toBeNull()
        expect((yield* member(one, "unconfirmed@example.com")).unsubscribedAt).toEqual(june)
        expect((yield* member(one, "gone@example.com")).unsubscribedAt).toEqual(at(2))
        expect(yield* statusCounts(one)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 4 })
        expect((yield* member(two, "elsewhere@example.com")).unsubscribedAt).toBeNull()
        expect(yield* statusCounts(two)).toEqual({ subscribed: 1, unconfirmed: 0, unsubscribed: 0 })

        expect(yield* batches.unsubscribeOthers(subscriberImport.id, one, at(300))).toBe(0)
        expect((yield* member(one, "other@example.com")).unsubscribedAt).toEqual(at(200))
        expect(yield* statusCounts(one)).toEqual({ subscribed: 2, unconfirmed: 0, unsubscribed: 4 })
        expect((yield* found(subscriberImport.id)).status).toBe("importing")
      })))
  })
