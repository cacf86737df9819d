import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("tag collection on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("TagList "), default_from_email: "a@example.com" } })
      expectStatus(r, 201)
      return r.body.data
    })
    const tags = (list: string) => `/api/email-lists/${list}/tags`
    /** Creates tags in order, each a little later than the one before. */
    const create = (list: string, bodies: ReadonlyArray<Record<string, unknown>>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const body of bodies) {
          expectStatus(yield* call("POST", tags(list), { body }), 201)
          yield* Effect.sleep("15 millis")
        }
      })
    const names = (list: string, params: Record<string, string> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `${tags(list)}?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        expect(r.body.meta.total).toBe(r.body.data.length)
        return r.body.data.map((t: { name: string }) => t.name) as Array<string>
      })

    it.effect("sorts by name by default, case-insensitively; -name reverses", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, [{ name: "beta" }, { name: "Charlie" }, { name: "alpha" }, { name: "Delta" }])
        const ascending = ["alpha", "beta", "Charlie", "Delta"]
        expect(yield* names(list)).toEqual(ascending)
        expect(yield* names(list, { sort: "name" })).toEqual(ascending)
        expect(yield* names(list, { sort: "-name" })).toEqual([...ascending].reverse())
      }))

    it.effect("sorts by updated_at in both directions; an update moves a tag last", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = (yield* newList).uuid
        yield* create(list, [{ name: "b" }, { name: "c" }, { name: "a" }])
        expect(yield* names(list, { sort: "updated_at" })).toEqual(["b", "c", "a"])
        expect(yield* names(list, { sort: "-updated_at" })).toEqual(["a", "c", "b"])
        const b = (yield* call("GET", `${tags(list)}?filter[search]=b`)).body.data[0]
        expectStatus(yield* call("PUT", `${tags(list)}/${b.uuid}`, { body: { name: "b" } }), 200)
        expect(yield* names(list, { sort: "updated_at" })).toEqual(["c", "a", "b"])
      }))

    it.effect("sorts by subscriber_count and visible_in_preferences", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = (yield* newList).uuid
        yield* create(list, [
          { name: "none", visible_in_preferences: true },
          { name: "two" },
          { name: "one", visible_in_preferences: true },
          { name: "zero" }
        ])
        for (const tagNames of [["two", "one"], ["two"]]) {
          const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, {
            body: { email: `${unique("c")}@example.com`, tags: tagNames }
          })
          expectStatus(r, 201)
        }
        expect((yield* names(list, { sort: "-subscriber_count" })).slice(0, 2)).toEqual(["two", "one"])
        expect((yield* names(list, { sort: "subscriber_count" })).slice(2)).toEqual(["one", "two"])
        expect(yield* names(list, { sort: "subscriber_count,name" })).toEqual(["none", "zero", "one", "two"])
        expect(yield* names(list, { sort: "visible_in_preferences,name" })).toEqual(["two", "zero", "none", "one"])
        expect(yield* names(list, { sort: "-visible_in_preferences,name" })).toEqual(["none", "one", "two", "zero"])
        const flags = yield* call("GET", `${tags(list)}?sort=visible_in_preferences`)
        expect(flags.body.data.map((t: { visible_in_preferences: boolean }) => t.visible_in_preferences)).toEqual([
          false,
          false,
          true,
          true
        ])
      }))

    it.effect("filter[search] is a case-insensitive substring of the name", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, [{ name: "Weekly Digest" }, { name: "digest-daily" }, { name: "Other" }])
        expect(yield* names(list, { "filter[search]": "DIGEST" })).toEqual(["digest-daily", "Weekly Digest"])
        expect(yield* names(list, { "filter[search]": "ly di" })).toEqual(["Weekly Digest"])
        expect(yield* names(list, { "filter[search]": "nothing" })).toEqual([])
        expect(yield* names(list, { "filter[search]": "" })).toEqual(["digest-daily", "Other", "Weekly Digest"])
      }))

    // Regression: SQLite's lower(name) LIKE folded ASCII only, so "ÉTÉ" did not find "Été".
    it.effect("filter[search] ignores the case of non-ASCII letters", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, [{ name: "Été 2024" }, { name: "winter" }])
        expect(yield* names(list, { "filter[search]": "été" })).toEqual(["Été 2024"])
        expect(yield* names(list, { "filter[search]": "ÉTÉ" })).toEqual(["Été 2024"])
      }))

    it.effect("filter[type] keeps default or mailcoach tags; other values are ignored", () =>
      Effect.gen(function*() {
        const list = (yield* newList).uuid
        yield* create(list, [{ name: "x" }, { name: "y" }])
        expect(yield* names(list, { "filter[type]": "default" })).toEqual(["x", "y"])
        expect(yield* names(list, { "filter[type]": "mailcoach" })).toEqual([])
        expect(yield* names(list, { "filter[type]": "bogus" })).toEqual(["x", "y"])
        expect(yield* names(list, { "filter[type]": "default", "filter[search]": "y" })).toEqual(["y"])
      }))

    it.effect("only the list's own tags are listed", () =>
      Effect.gen(function*() {
        const a = (yield* newList).uuid
        const b = (yield* newList).uuid
        yield* create(a, [{ name: "mine" }])
        yield* create(b, [{ name: "theirs" }, { name: "Mine" }])
        expect(yield* names(a)).toEqual(["mine"])
        expect(yield* names(b)).toEqual(["Mine", "theirs"])
      }))

    it.effect("include=emailList embeds the full list; without it there is no email_list", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        yield* create(list.uuid, [{ name: "inc" }])
        const plain = yield* call("GET", tags(list.uuid))
        expect("email_list" in plain.body.data[0]).toBe(false)
        const withList = yield* call("GET", `${tags(list.uuid)}?include=emailList`)
        expectStatus(withList, 200)
        const { email_list, ...rest } = withList.body.data[0]
        expect(rest).toEqual(plain.body.data[0])
        expect(email_list).toEqual(list)
        const single = yield* call("GET", `${tags(list.uuid)}/${rest.uuid}`)
        expect("email_list" in single.body.data).toBe(false)
      }))

    it.effect("unknown sort, filter or include answers 400 naming the allowed ones", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = (yield* newList).uuid
        const sort = yield* call("GET", `${tags(list)}?sort=created_at`)
        expectMessageOnly(sort, 400)
        expect(sort.body.message).toMatch(/^Requested sort\(s\) `created_at` is not allowed\. Allowed sort\(s\) are /)
        for (const key of ["name", "updated_at", "subscriber_count", "visible_in_preferences"]) {
          expect(sort.body.message).toContain(`\`${key}\``)
        }
        const filter = yield* call("GET", `${tags(list)}?filter[name]=x`)
        expectMessageOnly(filter, 400)
        expect(filter.body.message).toMatch(/^Requested filter\(s\) `name` are not allowed\. Allowed filter\(s\) are /)
        for (const key of ["search", "type"]) expect(filter.body.message).toContain(`\`${key}\``)
        expectMessageOnly(
          yield* call("GET", `${tags(list)}?include=foo`),
          400,
          "Requested include(s) `foo` are not allowed. Allowed include(s) are `emailList`."
        )
      }))

    it.effect("an unknown or garbage list answers 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const list of [crypto.randomUUID(), "abc", "99999999999999"]) {
          expectMessageOnly(yield* call("GET", tags(list)), 404)
        }
      }))

    it.effect("pages with the collection envelope, keeping the query in links", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const list = (yield* newList).uuid
        for (let i = 1; i <= 7; i++) expectStatus(yield* call("POST", tags(list), { body: { name: `t${i}` } }), 201)
        const empty = yield* call("GET", tags((yield* newList).uuid))
        expectStatus(empty, 200)
        expect(empty.body.data).toEqual([])
        expect(empty.body.meta).toMatchObject({ current_page: 1, from: null, to: null, last_page: 1, total: 0, per_page: 15 })
        const r = yield* call("GET", `${tags(list)}?sort=-name&per_page=3&page=2`)
        expectStatus(r, 200)
        expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"])
        expect(r.body.data.map((t: { name: string }) => t.name)).toEqual(["t4", "t3", "t2"])
        expect(r.body.meta).toMatchObject({
          current_page: 2,
          from: 4,
          to: 6,
          last_page: 3,
          per_page: 3,
          total: 7,
          path: `${url}${tags(list)}`
        })
        const next = new URL(r.body.links.next)
        expect(next.searchParams.get("page")).toBe("3")
        expect(next.searchParams.get("sort")).toBe("-name")
        expect(new URL(r.body.links.prev).searchParams.get("page")).toBe("1")
        const last = yield* call("GET", r.body.links.next.slice(url.length))
        expect(last.body.data.map((t: { name: string }) => t.name)).toEqual(["t1"])
        expect(last.body.links.next).toBeNull()
      }))
  })
})
