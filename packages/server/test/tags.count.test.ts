import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("tag subscriber_count on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Counts "), default_from_email: "a@example.com" } })
      expectStatus(r, 201)
      return r.body.data.uuid as string
    })
    const subscribe = (list: string, tags: ReadonlyArray<string>, email = `${unique("s")}@example.com`) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email, tags } })
        expect([200, 201], r.text).toContain(r.status)
        return r.body.data
      })
    /** Tag name → subscriber_count, from the list endpoint. */
    const counts = (list: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/email-lists/${list}/tags?per_page=100`)
        expectStatus(r, 200)
        return Object.fromEntries(
          r.body.data.map((t: { name: string; subscriber_count: number }) => [t.name, t.subscriber_count])
        ) as Record<string, number>
      })

    it.effect("subscribing with tags creates the missing tags and counts the subscribers", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const vip = yield* call("POST", `/api/email-lists/${list}/tags`, { body: { name: "VIP" } })
        expectStatus(vip, 201)
        const first = yield* subscribe(list, ["vip", "Fresh"])
        expect([...first.tags].sort()).toEqual(["Fresh", "VIP"])
        yield* subscribe(list, ["VIP"])
        yield* subscribe(list, [])
        expect(yield* counts(list)).toEqual({ VIP: 2, Fresh: 1 })
        const one = yield* call("GET", `/api/email-lists/${list}/tags/${vip.body.data.uuid}`)
        expect(one.body.data.subscriber_count).toBe(2)
        const created = yield* call("GET", `/api/email-lists/${list}/tags?filter[search]=Fresh`)
        expect(created.body.data[0]).toMatchObject({ type: "default", visible_in_preferences: false, email_list_uuid: list })
      }))

    it.effect("concurrent subscribes with a new tag name share one tag", () =>
      Effect.gen(function*() {
        const list = yield* newList
        yield* Effect.all(Array.from({ length: 6 }, () => subscribe(list, ["Launch"])), { concurrency: "unbounded" })
        expect(yield* counts(list)).toEqual({ Launch: 6 })
      }))

    it.effect("tagged subscribers created and deleted at the same time all succeed, with exact counts", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        yield* subscribe(list, ["alpha", "beta"])
        /** Subscribes with both tags and deletes the subscriber again, `rounds` times; every status seen. */
        const churn = (rounds: number) =>
          Effect.gen(function*() {
            const seen: Array<number> = []
            for (let i = 0; i < rounds; i++) {
              const created = yield* call("POST", `/api/email-lists/${list}/subscribers`, {
                body: { email: `${unique("churn")}@example.com`, tags: ["beta", "alpha"] }
              })
              seen.push(created.status)
              if (created.status !== 201) continue
              seen.push((yield* call("DELETE", `/api/subscribers/${created.body.data.uuid}`)).status)
            }
            return seen
          })
        const seen = (yield* Effect.all(Array.from({ length: 8 }, () => churn(15)), { concurrency: "unbounded" })).flat()
        expect(seen.filter((status) => status !== 201 && status !== 204)).toEqual([])
        expect(yield* counts(list)).toEqual({ alpha: 1, beta: 1 })
      }), { timeout: 60_000 })

    it.effect("adding and removing tags on a subscriber moves the counts", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const sub = yield* subscribe(list, ["a"])
        const other = yield* subscribe(list, ["a"])
        const added = yield* call("POST", `/api/subscribers/${sub.uuid}/tags`, { body: { tags: ["b", "C", "A"] } })
        expectStatus(added, 200)
        expect([...added.body.data.tags].sort()).toEqual(["C", "a", "b"])
        expect(yield* counts(list)).toEqual({ a: 2, b: 1, C: 1 })
        const removed = yield* call("DELETE", `/api/subscribers/${sub.uuid}/tags`, { body: { tags: ["A", "c", "unknown"] } })
        expectStatus(removed, 200)
        expect(removed.body.data.tags).toEqual(["b"])
        expect(yield* counts(list)).toEqual({ a: 1, b: 1, C: 0 })
        expectStatus(yield* call("DELETE", `/api/subscribers/${other.uuid}/tags`, { body: { tags: ["a"] } }), 200)
        expect(yield* counts(list)).toEqual({ a: 0, b: 1, C: 0 })
      }))

    it.effect("re-subscribing an address with tags replaces its tags", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const email = `${unique("again")}@example.com`
        yield* subscribe(list, ["old", "both"], email)
        const again = yield* subscribe(list, ["both", "new"], email)
        expect([...again.tags].sort()).toEqual(["both", "new"])
        expect(yield* counts(list)).toEqual({ old: 0, both: 1, new: 1 })
      }))

    it.effect("unsubscribed subscribers still count; deleted ones do not", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const leaving = yield* subscribe(list, ["t"])
        const deleted = yield* subscribe(list, ["t", "u"])
        yield* subscribe(list, ["t"])
        expectStatus(yield* call("POST", `/api/subscribers/${leaving.uuid}/unsubscribe`), 204)
        expect(yield* counts(list)).toEqual({ t: 3, u: 1 })
        expectStatus(yield* call("DELETE", `/api/subscribers/${deleted.uuid}`), 204)
        expect(yield* counts(list)).toEqual({ t: 2, u: 0 })
      }))

    it.effect("counts are per list: a same-named tag in another list is counted apart", () =>
      Effect.gen(function*() {
        const a = yield* newList
        const b = yield* newList
        yield* subscribe(a, ["shared"])
        yield* subscribe(a, ["shared"])
        yield* subscribe(b, ["SHARED"])
        expect(yield* counts(a)).toEqual({ shared: 2 })
        expect(yield* counts(b)).toEqual({ SHARED: 1 })
      }))

    it.effect("a tag renamed keeps its subscribers and shows the new name on them", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const sub = yield* subscribe(list, ["before"])
        const tag = (yield* call("GET", `/api/email-lists/${list}/tags`)).body.data[0]
        const renamed = yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: { name: "after" } })
        expectStatus(renamed, 200)
        expect(renamed.body.data.subscriber_count).toBe(1)
        expect((yield* call("GET", `/api/subscribers/${sub.uuid}`)).body.data.tags).toEqual(["after"])
      }))
  })
})
