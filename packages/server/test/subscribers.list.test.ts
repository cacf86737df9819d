import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

interface Person {
  readonly key: string
  readonly first?: string
  readonly last?: string
  readonly tags?: ReadonlyArray<string>
}

describe.each(stores)("subscriber collection on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const createList = (extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Coll "), default_from_email: "news@example.com", ...extra }
        })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    /** Subscribes people in order (`pause` ms apart); returns key → subscriber. */
    const populate = (list: string, people: ReadonlyArray<Person>, pause = 15) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const byKey: Record<string, { uuid: string; email: string }> = {}
        for (const p of people) {
          const body = { email: `${p.key}@example.com`, first_name: p.first ?? null, last_name: p.last ?? null, tags: p.tags ?? [] }
          const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body })
          expectStatus(r, 201)
          byKey[p.key] = r.body.data
          if (pause > 0) yield* Effect.sleep(`${pause} millis`)
        }
        return byKey
      })
    /** The local parts of the listed emails, checking meta.total. */
    const keys = (list: string, params: Record<string, string> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/email-lists/${list}/subscribers?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        expect(r.body.meta.total).toBe(r.body.data.length)
        return r.body.data.map((s: { email: string }) => s.email.replace(/@example\.com$/, "")) as Array<string>
      })
    const act = (uuid: string, action: string) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/subscribers/${uuid}/${action}`))

    it.effect("default order is newest first, also for subscribers created in the same instant", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const p = unique("ord")
        yield* populate(list, [`${p}1`, `${p}2`, `${p}3`].map((key) => ({ key })))
        expect(yield* keys(list)).toEqual([`${p}3`, `${p}2`, `${p}1`])
        expect(yield* keys(list, { sort: "-created_at" })).toEqual([`${p}3`, `${p}2`, `${p}1`])
        expect(yield* keys(list, { sort: "created_at" })).toEqual([`${p}1`, `${p}2`, `${p}3`])
        const fast = yield* createList()
        const burst = Array.from({ length: 8 }, (_, i) => ({ key: `${p}b${i}` }))
        yield* populate(fast, burst, 0)
        expect(yield* keys(fast)).toEqual(burst.map((b) => b.key).reverse())
        expect(yield* keys(fast, { sort: "-id" })).toEqual(burst.map((b) => b.key).reverse())
        expect(yield* keys(fast, { sort: "id" })).toEqual(burst.map((b) => b.key))
        const page = yield* call("GET", `/api/email-lists/${fast}/subscribers?per_page=3&page=2`)
        expectStatus(page, 200)
        expect(page.body.meta).toMatchObject({ total: 8, per_page: 3, current_page: 2, last_page: 3 })
        expect(page.body.data.map((s: { email: string }) => s.email)).toEqual(
          burst.slice(2, 5).reverse().map((b) => `${b.key}@example.com`)
        )
      }))

    it.effect("sorts by email, first_name and last_name in both directions", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const p = unique("name")
        yield* populate(list, [
          { key: `${p}b`, first: "Zed", last: "Moss" },
          { key: `${p}c`, first: "Amy", last: "Zane" },
          { key: `${p}a`, first: "Max", last: "Abel" }
        ], 0)
        expect(yield* keys(list, { sort: "email" })).toEqual([`${p}a`, `${p}b`, `${p}c`])
        expect(yield* keys(list, { sort: "-email" })).toEqual([`${p}c`, `${p}b`, `${p}a`])
        expect(yield* keys(list, { sort: "first_name" })).toEqual([`${p}c`, `${p}a`, `${p}b`])
        expect(yield* keys(list, { sort: "-first_name" })).toEqual([`${p}b`, `${p}a`, `${p}c`])
        expect(yield* keys(list, { sort: "last_name" })).toEqual([`${p}a`, `${p}b`, `${p}c`])
        expect(yield* keys(list, { sort: "-last_name" })).toEqual([`${p}c`, `${p}b`, `${p}a`])
      }))

    it.effect("sorts by updated_at, subscribed_at and unsubscribed_at; unsubscribed defaults to -unsubscribed_at", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const p = unique("time")
        const s = yield* populate(list, [`${p}1`, `${p}2`, `${p}3`, `${p}4`].map((key) => ({ key })))
        const touched = yield* call("PATCH", `/api/subscribers/${s[`${p}1`]!.uuid}`, {
          body: { email: `${p}1@example.com`, first_name: "Later" }
        })
        expectStatus(touched, 200)
        expect((yield* keys(list, { sort: "-updated_at" }))[0]).toBe(`${p}1`)
        expect((yield* keys(list, { sort: "updated_at" })).at(-1)).toBe(`${p}1`)
        expect(yield* keys(list, { sort: "subscribed_at" })).toEqual([`${p}1`, `${p}2`, `${p}3`, `${p}4`])
        expect(yield* keys(list, { sort: "-subscribed_at" })).toEqual([`${p}4`, `${p}3`, `${p}2`, `${p}1`])
        for (const key of [`${p}3`, `${p}1`, `${p}2`]) {
          expectStatus(yield* act(s[key]!.uuid, "unsubscribe"), 204)
          yield* Effect.sleep("15 millis")
        }
        const unsub = { "filter[status]": "unsubscribed" }
        expect(yield* keys(list, unsub)).toEqual([`${p}2`, `${p}1`, `${p}3`])
        expect(yield* keys(list, { ...unsub, sort: "-unsubscribed_at" })).toEqual([`${p}2`, `${p}1`, `${p}3`])
        expect(yield* keys(list, { ...unsub, sort: "unsubscribed_at" })).toEqual([`${p}3`, `${p}1`, `${p}2`])
        expect(yield* keys(list, { ...unsub, sort: "created_at" })).toEqual([`${p}1`, `${p}2`, `${p}3`])
        // without the status filter the default stays -created_at
        expect(yield* keys(list)).toEqual([`${p}4`, `${p}3`, `${p}2`, `${p}1`])
      }))

    it.effect("an unknown sort or filter answers 400; an unknown list 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        for (const params of ["sort=status", "sort=-uuid", "sort=email,nope", "filter[first_name]=x", "filter[nope]=1"]) {
          expectMessageOnly(yield* call("GET", `/api/email-lists/${list}/subscribers?${params}`), 400)
        }
        const sort = yield* call("GET", `/api/email-lists/${list}/subscribers?sort=status`)
        expect(sort.body.message).toContain("`status`")
        for (const id of ["6b2c1d2e-0000-4000-8000-000000000000", "nope"]) {
          expectMessageOnly(yield* call("GET", `/api/email-lists/${id}/subscribers`), 404)
        }
      }))

    it.effect("filter[email] is exact, case-insensitive and trimmed", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const p = unique("mail")
        yield* populate(list, [{ key: `${p}` }, { key: `${p}x` }], 0)
        expect(yield* keys(list, { "filter[email]": `${p}@example.com` })).toEqual([p])
        expect(yield* keys(list, { "filter[email]": `  ${p.toUpperCase()}@EXAMPLE.com ` })).toEqual([p])
        expect(yield* keys(list, { "filter[email]": p })).toEqual([])
        expect(yield* keys(list, { "filter[email]": `nobody@example.com` })).toEqual([])
      }))

    it.effect("filter[status] selects subscribed, unsubscribed or unconfirmed; other values are ignored", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList({ requires_confirmation: true })
        const p = unique("st")
        const add = (key: string, skip: boolean) =>
          call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: `${key}@example.com`, skip_confirmation: skip } })
        const sub = (yield* add(`${p}sub`, true)).body.data
        const unc = (yield* add(`${p}unc`, false)).body.data
        const off = (yield* add(`${p}off`, true)).body.data
        expectStatus(yield* act(off.uuid, "unsubscribe"), 204)
        expect(yield* keys(list, { "filter[status]": "subscribed" })).toEqual([sub.email.split("@")[0]])
        expect(yield* keys(list, { "filter[status]": "unconfirmed" })).toEqual([unc.email.split("@")[0]])
        expect(yield* keys(list, { "filter[status]": "unsubscribed" })).toEqual([off.email.split("@")[0]])
        expect((yield* keys(list, { "filter[status]": "bogus" })).sort()).toEqual([`${p}off`, `${p}sub`, `${p}unc`])
        expectStatus(yield* act(unc.uuid, "confirm"), 204)
        expect((yield* keys(list, { "filter[status]": "subscribed" })).sort()).toEqual([`${p}sub`, `${p}unc`])
        expect(yield* keys(list, { "filter[status]": "unconfirmed" })).toEqual([])
      }))

    it.effect("filter[search] matches email, first and last name substrings, case-insensitively", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const p = unique("srch")
        yield* populate(list, [
          { key: `${p}-alpha`, first: "Ann-Lee", last: "Quill" },
          { key: `${p}-beta`, first: "Bob", last: "Mc-Lee" },
          { key: `${p}-gamma`, first: "Cleo", last: "Stone" }
        ], 0)
        expect((yield* keys(list, { "filter[search]": "ALPH" }))).toEqual([`${p}-alpha`])
        expect((yield* keys(list, { "filter[search]": "aNN-" }))).toEqual([`${p}-alpha`])
        expect((yield* keys(list, { "filter[search]": "mc-l" }))).toEqual([`${p}-beta`])
        expect((yield* keys(list, { "filter[search]": "-LEE" })).sort()).toEqual([`${p}-alpha`, `${p}-beta`])
        expect((yield* keys(list, { "filter[search]": p.toUpperCase() })).length).toBe(3)
        expect(yield* keys(list, { "filter[search]": "zzzz-nothing" })).toEqual([])
        expect(yield* keys(list, { "filter[search]": "stone", "filter[status]": "unsubscribed" })).toEqual([])
      }))

    it.effect("filter[tags] takes names or uuids, any (default) or all; unknown tags give nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const p = unique("tg")
        yield* populate(list, [
          { key: `${p}red`, tags: ["red"] },
          { key: `${p}both`, tags: ["red", "blue"] },
          { key: `${p}blue`, tags: ["blue"] },
          { key: `${p}none` }
        ], 0)
        const tags = (yield* call("GET", `/api/email-lists/${list}/tags`)).body.data as Array<{ uuid: string; name: string }>
        const uuidOf = (name: string) => tags.find((t) => t.name === name)!.uuid
        const sorted = (params: Record<string, string>) => Effect.map(keys(list, params), (k) => k.sort())
        expect(yield* sorted({ "filter[tags]": "red" })).toEqual([`${p}both`, `${p}red`])
        expect(yield* sorted({ "filter[tags]": "red,blue" })).toEqual([`${p}blue`, `${p}both`, `${p}red`])
        expect(yield* sorted({ "filter[tags]": "red,blue", "filter[tagType]": "any" })).toEqual([`${p}blue`, `${p}both`, `${p}red`])
        expect(yield* sorted({ "filter[tags]": "red,blue", "filter[tagType]": "all" })).toEqual([`${p}both`])
        expect(yield* sorted({ "filter[tags]": `${uuidOf("blue")}` })).toEqual([`${p}blue`, `${p}both`])
        expect(yield* sorted({ "filter[tags]": `${uuidOf("red")},${uuidOf("blue")}`, "filter[tagType]": "all" })).toEqual([`${p}both`])
        expect(yield* sorted({ "filter[tags]": `red,${uuidOf("blue")}`, "filter[tagType]": "all" })).toEqual([`${p}both`])
        expect(yield* keys(list, { "filter[tags]": "green" })).toEqual([])
        expect(yield* keys(list, { "filter[tags]": "green,purple", "filter[tagType]": "all" })).toEqual([])
        expect(yield* sorted({ "filter[tags]": "blue", "filter[search]": `${p}b` })).toEqual([`${p}blue`, `${p}both`])
      }))
  })
})
