/** Import rules for addresses already on the list: unsubscribed, unconfirmed, merged fields, tags, unsubscribe_others. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, TIMESTAMP } from "./expectations.js"
import {
  countWithStatus,
  createList,
  expectExactActiveCount,
  importErrors,
  runImport,
  subscribe,
  subscribersOf,
  tagCounts
} from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UNSUBSCRIBED_REASON = "The address unsubscribed from this list (set subscribe_unsubscribed to subscribe it again)."
const sorted = (names: ReadonlyArray<string>) => [...names].sort((a, b) => a.localeCompare(b))

describe.each(stores)("subscriber imports over existing subscribers on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const unsubscribe = (uuid: string) =>
      Effect.gen(function*() {
        expectStatus(yield* (yield* TestServer).call("POST", `/api/subscribers/${uuid}/unsubscribe`), 204)
      })

    it.effect("an unsubscribed address is refused and left alone unless subscribe_unsubscribed", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const gone = yield* subscribe(list, { email: "gone@example.com", first_name: "Gone", tags: ["old"] })
        yield* unsubscribe(gone.uuid)
        const before = (yield* subscribersOf(list)).get("gone@example.com")
        const refused = yield* runImport(list, "email,first_name,tags\nok@example.com,Ok,\nGONE@example.com,Back,new\n")
        expect(refused).toMatchObject({ imported_subscribers_count: 2, error_count: 1 })
        expect(yield* importErrors(refused.id)).toEqual([{ line: 3, email: "gone@example.com", reason: UNSUBSCRIBED_REASON }])
        expect((yield* subscribersOf(list)).get("gone@example.com")).toEqual(before)
        expect(yield* tagCounts(list)).toEqual({ old: 1 })
        yield* expectExactActiveCount(list, 1)
        const again = yield* runImport(list, "email,first_name,tags\ngone@example.com,Back,new\n", { subscribe_unsubscribed: true })
        expect(again).toMatchObject({ imported_subscribers_count: 1, error_count: 0 })
        const back = (yield* subscribersOf(list)).get("gone@example.com")
        expect(back).toMatchObject({ uuid: gone.uuid, first_name: "Back", unsubscribed_at: null })
        expect(back.subscribed_at).toMatch(TIMESTAMP)
        expect(sorted(back.tags)).toEqual(["new", "old"])
        yield* expectExactActiveCount(list, 2)
        expect(yield* countWithStatus(list, "unsubscribed")).toBe(0)
      }))

    it.effect("a repeated unsubscribed address is refused once; the later rows are skipped, not refused again", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const gone = yield* subscribe(list, { email: "twice@example.com" })
        yield* unsubscribe(gone.uuid)
        const done = yield* runImport(list, "email\ntwice@example.com\nkeep@example.com\nTwice@example.com\ntwice@example.com\n")
        expect(done).toMatchObject({ imported_subscribers_count: 4, error_count: 1 })
        expect(yield* importErrors(done.id)).toEqual([{ line: 2, email: "twice@example.com", reason: UNSUBSCRIBED_REASON }])
        yield* expectExactActiveCount(list, 1)
      }))

    it.effect("an unconfirmed address becomes subscribed; a subscribed one keeps its subscription date", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList({ requires_confirmation: true })
        const waiting = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: "wait@example.com" } })
        expectStatus(waiting, 201)
        const member = yield* subscribe(list, { email: "member@example.com" })
        expect(yield* countWithStatus(list, "unconfirmed")).toBe(1)
        yield* Effect.sleep("5 millis")
        yield* runImport(list, "email\nwait@example.com\nmember@example.com\n")
        const s = yield* subscribersOf(list)
        expect(s.get("wait@example.com")).toMatchObject({ uuid: waiting.body.data.uuid, unsubscribed_at: null })
        expect(s.get("wait@example.com").subscribed_at).toMatch(TIMESTAMP)
        expect(s.get("member@example.com")).toMatchObject({ uuid: member.uuid, subscribed_at: member.subscribed_at })
        expect(yield* countWithStatus(list, "unconfirmed")).toBe(0)
        yield* expectExactActiveCount(list, 2)
      }))

    it.effect("existing subscribers get non-empty names replaced, attributes merged and tags added", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const old = yield* subscribe(list, {
          email: "known@example.com",
          first_name: "Old",
          last_name: "Keep",
          extra_attributes: { plan: "free", city: "Paris" },
          tags: ["old", "shared"]
        })
        yield* subscribe(list, { email: "bystander@example.com", tags: ["shared"] })
        const done = yield* runImport(list, "email,first_name,last_name,plan,seats,tags\nKnown@Example.com,New,,pro,,shared|fresh\n")
        expect(done).toMatchObject({ imported_subscribers_count: 1, error_count: 0 })
        const s = yield* subscribersOf(list)
        expect(s.get("known@example.com")).toMatchObject({
          uuid: old.uuid,
          first_name: "New",
          last_name: "Keep",
          extra_attributes: { plan: "pro", city: "Paris" },
          subscribed_at: old.subscribed_at,
          created_at: old.created_at
        })
        expect(sorted(s.get("known@example.com").tags)).toEqual(["fresh", "old", "shared"])
        expect(sorted(s.get("bystander@example.com").tags)).toEqual(["shared"])
        expect(yield* tagCounts(list)).toEqual({ old: 1, shared: 2, fresh: 1 })
        yield* expectExactActiveCount(list, 2)
      }))

    it.effect("replace_tags replaces the tags of existing subscribers; tag counts stay exact", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        yield* subscribe(list, { email: "one@example.com", tags: ["a", "b"] })
        yield* subscribe(list, { email: "two@example.com", tags: ["a"] })
        yield* subscribe(list, { email: "out@example.com", tags: ["a", "b"] })
        const csv = "email,tags\none@example.com,c\ntwo@example.com,A;c\nnew@example.com,c|b\n"
        const done = yield* runImport(list, csv, { replace_tags: true })
        expect(done).toMatchObject({ replace_tags: true, imported_subscribers_count: 3, error_count: 0 })
        const s = yield* subscribersOf(list)
        expect(s.get("one@example.com").tags).toEqual(["c"])
        expect(sorted(s.get("two@example.com").tags)).toEqual(["a", "c"])
        expect(sorted(s.get("new@example.com").tags)).toEqual(["b", "c"])
        expect(sorted(s.get("out@example.com").tags)).toEqual(["a", "b"])
        expect(yield* tagCounts(list)).toEqual({ a: 2, b: 2, c: 3 })
      }))

    it.effect("unsubscribe_others unsubscribes the subscribed members the import did not write, and only those", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList({ requires_confirmation: true })
        const other = yield* createList()
        yield* subscribe(list, { email: "stays@example.com", tags: ["t"] })
        const leaves = yield* subscribe(list, { email: "leaves@example.com", tags: ["t"] })
        const unconfirmed = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: "unconfirmed@example.com" } })
        expectStatus(unconfirmed, 201)
        const gone = yield* subscribe(list, { email: "gone@example.com" })
        yield* unsubscribe(gone.uuid)
        yield* subscribe(other, { email: "leaves@example.com" })
        const before = yield* subscribersOf(list)
        const done = yield* runImport(list, "email\nstays@example.com\nfresh@example.com\nbad address\n", { unsubscribe_others: true })
        expect(done).toMatchObject({ status: "completed", imported_subscribers_count: 3, error_count: 1 })
        const s = yield* subscribersOf(list)
        expect(s.get("leaves@example.com")).toMatchObject({ uuid: leaves.uuid, subscribed_at: leaves.subscribed_at })
        expect(s.get("leaves@example.com").unsubscribed_at).toMatch(TIMESTAMP)
        for (const address of ["stays@example.com", "fresh@example.com"]) expect(s.get(address).unsubscribed_at, address).toBeNull()
        expect(s.get("unconfirmed@example.com")).toEqual(before.get("unconfirmed@example.com"))
        expect(s.get("gone@example.com")).toEqual(before.get("gone@example.com"))
        yield* expectExactActiveCount(list, 2)
        expect(yield* countWithStatus(list, "unsubscribed")).toBe(2)
        expect(yield* countWithStatus(list, "unconfirmed")).toBe(1)
        expect(yield* tagCounts(list)).toEqual({ t: 2 })
        yield* expectExactActiveCount(other, 1)
        const quiet = yield* runImport(list, "email\nfresh@example.com\n")
        expect(quiet.unsubscribe_others).toBe(false)
        yield* expectExactActiveCount(list, 2)
      }))

    it.effect("unsubscribe_others keeps every address of the CSV, also the ones a second import writes again", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        yield* runImport(list, "email\nfirst@example.com\nsecond@example.com\nthird@example.com\n")
        const done = yield* runImport(list, "email\nsecond@example.com\nthird@example.com\nthird@example.com\n", { unsubscribe_others: true })
        expect(done).toMatchObject({ imported_subscribers_count: 3, error_count: 0 })
        const s = yield* subscribersOf(list)
        expect(s.get("first@example.com").unsubscribed_at).toMatch(TIMESTAMP)
        expect(s.get("second@example.com").unsubscribed_at).toBeNull()
        expect(s.get("third@example.com").unsubscribed_at).toBeNull()
        yield* expectExactActiveCount(list, 2)
      }))
  })
})
