/** Large imports sent in several append calls: 20,000 rows with refusals and repeats spread over many batches. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus } from "./expectations.js"
import {
  countWithStatus,
  createImport,
  createList,
  expectExactActiveCount,
  importAction,
  importErrors,
  importNow,
  INVALID,
  numberedCsv,
  startAndRun,
  subscribe,
  tagCounts,
  type TestList
} from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const ROWS = 20_000
const INVALID_ROWS = new Map<number, string>([[1_500, "bad1500@"], [2_001, "\"q\"2001@example.com"], [9_999, "bad 9999@example.com"], [15_000, "@example.com"], [19_999, "bad19999"]])
/** Row → the earlier row whose address it repeats (in upper case). */
const REPEATS = new Map<number, number>([[4_000, 1], [12_000, 11_000], [20_000, 3]])
const REFUSED = 7_000
const UNSUBSCRIBED_REASON = "The address unsubscribed from this list (set subscribe_unsubscribed to subscribe it again)."

/** Splits `text` into `count` parts of about equal length (cutting lines anywhere). */
const split = (text: string, count: number): Array<string> => {
  const size = Math.ceil(text.length / count)
  return Array.from({ length: count }, (_, i) => text.slice(i * size, (i + 1) * size)).filter((part) => part !== "")
}

describe.each(stores)("large subscriber imports on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const fetchSubscriber = (list: TestList, email: string) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/email-lists/${list.uuid}/subscribers?filter[email]=${encodeURIComponent(email)}`)
        expectStatus(r, 200)
        return r.body.data[0]
      })
    /** Creates the import with the first part, appends the others, and checks the stored text is the whole CSV. */
    const upload = (list: TestList, parts: ReadonlyArray<string>, flags: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const created = yield* createImport(list, parts[0]!, flags)
        for (const part of parts.slice(1)) {
          const r = yield* importAction(created.id, "append", { subscribers_csv: part })
          expectStatus(r, 200)
          expect(r.body.data.status).toBe("draft")
        }
        expect((yield* importNow(created.id)).subscribers_csv).toBe(parts.join(""))
        return created.id as number
      })

    it.effect("20,000 rows in 4 appended parts: every row processed once, refusals by line, repeats skipped, counts exact", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        yield* subscribe(list, { email: "bulk5@example.com", first_name: "Before", tags: ["old"] })
        const refused = yield* subscribe(list, { email: `bulk${REFUSED}@example.com` })
        expectStatus(yield* (yield* TestServer).call("POST", `/api/subscribers/${refused.uuid}/unsubscribe`), 204)
        yield* subscribe(list, { email: "outsider@example.com" })
        const lines = ["email,first_name,tags,plan"]
        const expectedErrors: Array<{ line: number; email: string; reason: string }> = []
        const tagged: Record<string, number> = { old: 1, third: 0, thousand: 0 }
        let written = 0
        for (let i = 1; i <= ROWS; i++) {
          const tags = [i % 3 === 0 ? "third" : "", i % 1_000 === 0 ? "thousand" : ""].filter((t) => t !== "").join("|")
          const email = INVALID_ROWS.get(i) ?? (REPEATS.has(i) ? `BULK${REPEATS.get(i)}@EXAMPLE.COM` : `bulk${i}@example.com`)
          lines.push(`${email},First${i},${tags},${i % 2 === 0 ? "even" : ""}`)
          if (INVALID_ROWS.has(i)) expectedErrors.push({ line: i + 1, email, reason: INVALID })
          else if (i === REFUSED) expectedErrors.push({ line: i + 1, email, reason: UNSUBSCRIBED_REASON })
          else if (!REPEATS.has(i)) {
            written++
            for (const tag of tags.split("|").filter((t) => t !== "")) tagged[tag]!++
          }
        }
        const id = yield* upload(list, split(lines.join("\n") + "\n", 4))
        const done = yield* startAndRun(id)
        expect(done).toMatchObject({ status: "completed", imported_subscribers_count: ROWS, error_count: expectedErrors.length, subscribers_csv: null })
        expect(yield* importErrors(id)).toEqual(expectedErrors)
        yield* expectExactActiveCount(list, written + 1)
        expect(yield* countWithStatus(list, "unsubscribed")).toBe(1)
        expect(yield* tagCounts(list)).toEqual(tagged)
        expect(yield* fetchSubscriber(list, "bulk5@example.com")).toMatchObject({ first_name: "First5", extra_attributes: [] })
        expect([...(yield* fetchSubscriber(list, "bulk5@example.com")).tags].sort()).toEqual(["old"])
        expect(yield* fetchSubscriber(list, "bulk3@example.com")).toMatchObject({ first_name: "First3", tags: ["third"] })
        expect(yield* fetchSubscriber(list, "bulk11000@example.com")).toMatchObject({ first_name: "First11000", extra_attributes: { plan: "even" } })
        expect(yield* fetchSubscriber(list, "bulk4000@example.com")).toBeUndefined()
        expect((yield* fetchSubscriber(list, `bulk${REFUSED}@example.com`)).unsubscribed_at).not.toBeNull()
        expect(yield* fetchSubscriber(list, "bulk19998@example.com")).toMatchObject({ first_name: "First19998", extra_attributes: { plan: "even" } })
      }), { timeout: 120_000 })

    it.effect("50 small appends (the header itself cut in three) import like one upload", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const csv = numberedCsv("many", 1, 2_500)
        const parts = ["em", "ail,first", ...split(csv.slice("email,first".length), 48)]
        expect(parts.length).toBe(50)
        const id = yield* upload(list, parts)
        const done = yield* startAndRun(id)
        expect(done).toMatchObject({ status: "completed", imported_subscribers_count: 2_500, error_count: 0 })
        yield* expectExactActiveCount(list, 2_500)
        expect(yield* fetchSubscriber(list, "many1234@example.com")).toMatchObject({ first_name: "First1234" })
      }), { timeout: 60_000 })

    it.effect("unsubscribe_others over a list of 6,000 keeps the 5,000 imported addresses and unsubscribes the rest", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const first = yield* upload(list, [numberedCsv("member", 1, 6_000)])
        expect((yield* startAndRun(first)).imported_subscribers_count).toBe(6_000)
        const second = yield* upload(list, split(numberedCsv("member", 1_001, 5_000), 3), { unsubscribe_others: true })
        expect(yield* startAndRun(second)).toMatchObject({ status: "completed", imported_subscribers_count: 5_000, error_count: 0 })
        yield* expectExactActiveCount(list, 5_000)
        expect(yield* countWithStatus(list, "unsubscribed")).toBe(1_000)
        expect((yield* fetchSubscriber(list, "member1000@example.com")).unsubscribed_at).not.toBeNull()
        expect((yield* fetchSubscriber(list, "member1001@example.com")).unsubscribed_at).toBeNull()
      }), { timeout: 60_000 })
  })
})
