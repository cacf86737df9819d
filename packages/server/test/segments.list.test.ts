import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("segment collection on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("SegList "), default_from_email: "a@example.com" } })
      expectStatus(r, 201)
      return r.body.data
    })
    const segments = (list: string) => `/api/email-lists/${list}/segments`
    /** Creates segments in order, each a little later than the one before. */
    const create = (list: string, names: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const name of names) {
          expectStatus(yield* call("POST", segments(list), { body: { name } }), 201)
          yield* Effect.sleep("15 millis")
        }
      })
    const names = (list: string, params: Record<string, string> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `${segments(list)}?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        expect(r.body.meta.total).toBe(r.body.data.length)
        return r.body.data.map((s: { name: string }) => s.name) as Array<string>
      })

    it.effect("sorts by name by default, case-insensitively; -name reverses", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, ["beta", "Charlie", "alpha"])
        expect(yield* names(list)).toEqual(["alpha", "beta", "Charlie"])
        expect(yield* names(list, { sort: "name" })).toEqual(["alpha", "beta", "Charlie"])
        expect(yield* names(list, { sort: "-name" })).toEqual(["Charlie", "beta", "alpha"])
      }))

    it.effect("sorts by created_at and -created_at", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, ["2", "3", "1"])
        expect(yield* names(list, { sort: "created_at" })).toEqual(["2", "3", "1"])
        expect(yield* names(list, { sort: "-created_at" })).toEqual(["1", "3", "2"])
      }))

    it.effect("filter[search] is a case-insensitive substring of the name; only the list's segments show", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        const other = (yield* newList).uuid
        yield* create(list, ["Big Spenders", "spend-less", "Other"])
        yield* create(other, ["Spenders elsewhere"])
        expect(yield* names(list, { "filter[search]": "SPEND" })).toEqual(["Big Spenders", "spend-less"])
        expect(yield* names(list, { "filter[search]": "g sp" })).toEqual(["Big Spenders"])
        expect(yield* names(list, { "filter[search]": "nothing" })).toEqual([])
        expect(yield* names(other)).toEqual(["Spenders elsewhere"])
      }))

    it.effect("include=emailList embeds the full list; without it there is no email_list", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        yield* create(list.uuid, ["inc"])
        const plain = yield* call("GET", segments(list.uuid))
        expect("email_list" in plain.body.data[0]).toBe(false)
        const withList = yield* call("GET", `${segments(list.uuid)}?include=emailList`)
        expectStatus(withList, 200)
        const { email_list, ...rest } = withList.body.data[0]
        expect(rest).toEqual(plain.body.data[0])
        expect(email_list).toEqual(list)
      }))

    it.effect("unknown sort, filter or include answers 400 naming the allowed ones", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = (yield* newList).uuid
        const sort = yield* call("GET", `${segments(list)}?sort=updated_at`)
        expectMessageOnly(sort, 400)
        expect(sort.body.message).toMatch(/^Requested sort\(s\) `updated_at` is not allowed\. Allowed sort\(s\) are /)
        for (const key of ["name", "created_at"]) expect(sort.body.message).toContain(`\`${key}\``)
        const filter = yield* call("GET", `${segments(list)}?filter[type]=x`)
        expectMessageOnly(filter, 400)
        expect(filter.body.message).toMatch(/^Requested filter\(s\) `type` are not allowed\. Allowed filter\(s\) are /)
        expect(filter.body.message).toContain("`search`")
        expectMessageOnly(
          yield* call("GET", `${segments(list)}?include=tags`),
          400,
          "Requested include(s) `tags` are not allowed. Allowed include(s) are `emailList`."
        )
      }))

    it.effect("an unknown or garbage list answers 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const list of [crypto.randomUUID(), "abc", "99999999999999"]) {
          expectMessageOnly(yield* call("GET", segments(list)), 404)
        }
      }))

    it.effect("pages with the collection envelope", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const list = (yield* newList).uuid
        for (let i = 1; i <= 5; i++) expectStatus(yield* call("POST", segments(list), { body: { name: `s${i}` } }), 201)
        const r = yield* call("GET", `${segments(list)}?per_page=2&page=3`)
        expectStatus(r, 200)
        expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"])
        expect(r.body.data.map((s: { name: string }) => s.name)).toEqual(["s5"])
        expect(r.body.meta).toMatchObject({
          current_page: 3,
          from: 5,
          to: 5,
          last_page: 3,
          per_page: 2,
          total: 5,
          path: `${url}${segments(list)}`
        })
        expect(r.body.links.next).toBeNull()
        expect(new URL(r.body.links.prev).searchParams.get("page")).toBe("2")
        const empty = yield* call("GET", segments((yield* newList).uuid))
        expect(empty.body.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1, per_page: 15 })
      }))
  })
})
