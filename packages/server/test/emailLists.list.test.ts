import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("email list collection on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** Creates lists with the given names, in order, each a little later than the one before. */
    const create = (names: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const name of names) {
          expectStatus(yield* call("POST", "/api/email-lists", { body: { name, default_from_email: "a@example.com" } }), 201)
          yield* Effect.sleep("15 millis")
        }
      })

    const names = (params: Record<string, string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/email-lists?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        expect(r.body.meta.total).toBe(r.body.data.length)
        return r.body.data.map((l: { name: string }) => l.name) as Array<string>
      })

    it.effect("sorts by name (the default, case-insensitive) and -name", () =>
      Effect.gen(function*() {
        const p = unique("byname")
        yield* create([`${p} b`, `${p} C`, `${p} a`])
        expect(yield* names({ "filter[search]": p })).toEqual([`${p} a`, `${p} b`, `${p} C`])
        expect(yield* names({ "filter[search]": p, sort: "name" })).toEqual([`${p} a`, `${p} b`, `${p} C`])
        expect(yield* names({ "filter[search]": p, sort: "-name" })).toEqual([`${p} C`, `${p} b`, `${p} a`])
      }))

    it.effect("sorts by created_at and -created_at", () =>
      Effect.gen(function*() {
        const p = unique("bytime")
        yield* create([`${p} 2`, `${p} 3`, `${p} 1`])
        expect(yield* names({ "filter[search]": p, sort: "created_at" })).toEqual([`${p} 2`, `${p} 3`, `${p} 1`])
        expect(yield* names({ "filter[search]": p, sort: "-created_at" })).toEqual([`${p} 1`, `${p} 3`, `${p} 2`])
      }))

    it.effect("sorts by active_subscribers_count in both directions", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const p = unique("bycount")
        yield* create([`${p} x`, `${p} y`])
        for (const sort of ["active_subscribers_count", "-active_subscribers_count", "-active_subscribers_count,name"]) {
          const r = yield* call("GET", `/api/email-lists?${query({ "filter[search]": p, sort })}`)
          expectStatus(r, 200)
          expect(r.body.data.length).toBe(2)
          for (const list of r.body.data) expect(list.active_subscribers_count).toBe(0)
        }
        expect(yield* names({ "filter[search]": p, sort: "active_subscribers_count,-name" })).toEqual([`${p} y`, `${p} x`])
      }))

    it.effect("filter[search] is a case-insensitive substring match on the name", () =>
      Effect.gen(function*() {
        const p = unique("Fuzzy")
        yield* create([`Weekly ${p} digest`, `${p}-news`])
        expect(yield* names({ "filter[search]": p.toUpperCase() })).toEqual([`${p}-news`, `Weekly ${p} digest`])
        expect(yield* names({ "filter[search]": `${p} DIG` })).toEqual([`Weekly ${p} digest`])
      }))

    it.effect("filter[name] is an exact, case-sensitive match (commas are not split)", () =>
      Effect.gen(function*() {
        const p = unique("exact")
        yield* create([`${p} List`, `${p} list`, `${p} List 2`, `${p} a,b`])
        expect(yield* names({ "filter[name]": `${p} List` })).toEqual([`${p} List`])
        expect(yield* names({ "filter[name]": `${p} list` })).toEqual([`${p} list`])
        expect(yield* names({ "filter[name]": `${p} LIST` })).toEqual([])
        expect(yield* names({ "filter[name]": `${p}` })).toEqual([])
        expect(yield* names({ "filter[name]": `${p} a,b` })).toEqual([`${p} a,b`])
        expect(yield* names({ "filter[name]": `${p} List`, "filter[search]": p })).toEqual([`${p} List`])
      }))

    it.effect("an unknown sort or filter answers 400 naming the allowed ones", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const sort = yield* call("GET", "/api/email-lists?sort=updated_at")
        expectMessageOnly(sort, 400)
        expect(sort.body.message).toMatch(/^Requested sort\(s\) `updated_at` is not allowed\. Allowed sort\(s\) are /)
        for (const key of ["name", "created_at", "active_subscribers_count"]) expect(sort.body.message).toContain(`\`${key}\``)
        const filter = yield* call("GET", "/api/email-lists?filter[uuid]=x")
        expectMessageOnly(filter, 400)
        expect(filter.body.message).toMatch(/^Requested filter\(s\) `uuid` are not allowed\. Allowed filter\(s\) are /)
        for (const key of ["search", "name"]) expect(filter.body.message).toContain(`\`${key}\``)
      }))
  })
})
