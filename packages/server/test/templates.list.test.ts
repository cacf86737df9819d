import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("template list on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** Creates templates with the given names, in order, each a little later than the one before. */
    const create = (names: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created: Array<{ uuid: string; name: string; updated_at: string }> = []
        for (const name of names) {
          const r = yield* call("POST", "/api/templates", { body: { name, html: `<p>${name}</p>` } })
          expectStatus(r, 201)
          created.push(r.body.data)
          yield* Effect.sleep("15 millis")
        }
        return created
      })

    const names = (params: Record<string, string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/templates?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        return r.body.data.map((t: { name: string }) => t.name) as Array<string>
      })

    it.effect("default sort is name, case-insensitive; -name reverses it", () =>
      Effect.gen(function*() {
        const p = unique("sort")
        yield* create([`${p} b`, `${p} C`, `${p} a`, `${p} D`])
        expect(yield* names({ "filter[search]": p })).toEqual([`${p} a`, `${p} b`, `${p} C`, `${p} D`])
        expect(yield* names({ "filter[search]": p, sort: "name" })).toEqual([`${p} a`, `${p} b`, `${p} C`, `${p} D`])
        expect(yield* names({ "filter[search]": p, sort: "-name" })).toEqual([`${p} D`, `${p} C`, `${p} b`, `${p} a`])
      }))

    it.effect("sort updated_at and -updated_at follow the last change", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const p = unique("upd")
        const [first] = yield* create([`${p} 1`, `${p} 2`, `${p} 3`])
        const put = yield* call("PUT", `/api/templates/${first!.uuid}`, { body: { name: `${p} 1` } })
        expectStatus(put, 200)
        expect(put.body.data.updated_at).toMatch(TIMESTAMP)
        expect(yield* names({ "filter[search]": p, sort: "updated_at" })).toEqual([`${p} 2`, `${p} 3`, `${p} 1`])
        expect(yield* names({ "filter[search]": p, sort: "-updated_at" })).toEqual([`${p} 1`, `${p} 3`, `${p} 2`])
      }))

    it.effect("several sort keys: name,-updated_at and name,updated_at", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const p = unique("multi")
        const [older, newer] = yield* create([`${p} same`, `${p} same`, `${p} alpha`])
        const uuids = (params: Record<string, string>) =>
          call("GET", `/api/templates?${query({ per_page: 100, "filter[search]": p, ...params })}`).pipe(
            Effect.map((r) => r.body.data.map((t: { uuid: string }) => t.uuid) as Array<string>)
          )
        const alpha = (yield* uuids({ sort: "name" }))[0]
        expect((yield* uuids({ sort: "name,-updated_at" }))).toEqual([alpha, newer!.uuid, older!.uuid])
        expect((yield* uuids({ sort: "name,updated_at" }))).toEqual([alpha, older!.uuid, newer!.uuid])
        expect((yield* uuids({ sort: "-name,updated_at" }))).toEqual([older!.uuid, newer!.uuid, alpha])
      }))

    it.effect("filter[search] is a case-insensitive substring match on the name", () =>
      Effect.gen(function*() {
        const p = unique("Srch")
        yield* create([`Newsletter ${p} weekly`, `${p}-Promo`, `other ${p.slice(0, 4)}`])
        expect(yield* names({ "filter[search]": p.toUpperCase() })).toEqual([`Newsletter ${p} weekly`, `${p}-Promo`])
        expect(yield* names({ "filter[search]": `${p} WEEK` })).toEqual([`Newsletter ${p} weekly`])
        expect(yield* names({ "filter[search]": `${p}-nothing` })).toEqual([])
      }))

    it.effect("filter[search] treats % and _ literally", () =>
      Effect.gen(function*() {
        const p = unique("lit")
        yield* create([`${p} 100% off`, `${p} 100 off`, `${p} a_b`, `${p} axb`])
        expect(yield* names({ "filter[search]": `${p} 100%` })).toEqual([`${p} 100% off`])
        expect(yield* names({ "filter[search]": `${p} a_b` })).toEqual([`${p} a_b`])
      }))

    it.effect("filter[search] also works with a percent-encoded key", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const p = unique("enc")
        yield* create([`${p} one`])
        const r = yield* call("GET", `/api/templates?filter%5Bsearch%5D=${encodeURIComponent(p)}`)
        expectStatus(r, 200)
        expect(r.body.data.map((t: { name: string }) => t.name)).toEqual([`${p} one`])
      }))

    it.effect("an empty sort or search and unrelated query parameters are ignored", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const p = unique("empty")
        yield* create([`${p} b`, `${p} a`])
        const all = yield* call("GET", "/api/templates?per_page=100")
        const total: number = all.body.meta.total
        for (const q of ["sort=", "filter[search]=", "foo=bar", "include="]) {
          const r = yield* call("GET", `/api/templates?per_page=100&${q}`)
          expect(r.status, `${q}: ${r.text}`).toBe(200)
          expect(r.body.meta.total, q).toBe(total)
          expect(r.body.data, q).toEqual(all.body.data)
        }
        for (const item of all.body.data) {
          expect(item.created_at).toMatch(TIMESTAMP)
          expect(item.updated_at).toMatch(TIMESTAMP)
        }
      }))

    it.effect("an unknown sort answers 400 naming the allowed sorts", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        expectMessageOnly(
          yield* call("GET", "/api/templates?sort=bogus"),
          400,
          "Requested sort(s) `bogus` is not allowed. Allowed sort(s) are `name`, `updated_at`."
        )
        expectMessageOnly(yield* call("GET", "/api/templates?sort=-bogus"), 400)
        expectMessageOnly(yield* call("GET", "/api/templates?sort=name,created_at"), 400)
      }))

    it.effect("an unknown filter answers 400 naming the allowed filters", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        expectMessageOnly(
          yield* call("GET", "/api/templates?filter[x]=1"),
          400,
          "Requested filter(s) `x` are not allowed. Allowed filter(s) are `search`."
        )
        expectMessageOnly(
          yield* call("GET", "/api/templates?filter[x]=1&filter[y]=2"),
          400,
          "Requested filter(s) `x`, `y` are not allowed. Allowed filter(s) are `search`."
        )
        expectMessageOnly(yield* call("GET", "/api/templates?filter[search]=a&filter[name]=b"), 400)
      }))
  })
})
