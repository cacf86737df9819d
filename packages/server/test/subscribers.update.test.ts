import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UNKNOWN = "6b2c1d2e-0000-4000-8000-000000000000"

describe.each(stores)("one subscriber on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const createList = () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Upd "), default_from_email: "news@example.com" }
        })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const subscribe = (list: string, body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body })
        expectStatus(r, 201)
        return r.body.data
      })
    const req = (method: string, path: string, body?: unknown) =>
      Effect.flatMap(TestServer, ({ call }) => call(method, path, body === undefined ? {} : { body }))
    const listTagNames = (list: string) =>
      Effect.gen(function*() {
        const r = yield* req("GET", `/api/email-lists/${list}/tags?per_page=100`)
        expectStatus(r, 200)
        return (r.body.data.map((t: { name: string }) => t.name) as Array<string>).sort()
      })

    it.effect("GET returns the subscriber; unknown or malformed ids answer 404", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const s = yield* subscribe(list, { email: unique("get") + "@example.com", first_name: "G" })
        const r = yield* req("GET", `/api/subscribers/${s.uuid}`)
        expectStatus(r, 200)
        expect(r.body).toEqual({ data: s })
        for (const id of [UNKNOWN, "not-a-uuid", "123"]) expectMessageOnly(yield* req("GET", `/api/subscribers/${id}`), 404)
      }))

    for (const method of ["PUT", "PATCH"]) {
      it.effect(`${method} requires a valid email and changes only the fields present`, () =>
        Effect.gen(function*() {
          const list = yield* createList()
          const address = unique("upd") + "@example.com"
          const s = yield* subscribe(list, {
            email: address,
            first_name: "Ann",
            last_name: "Old",
            extra_attributes: { a: 1 },
            tags: ["keep"]
          })
          const path = `/api/subscribers/${s.uuid}`
          expectValidation(yield* req(method, path, {}), ["email"])
          expectValidation(yield* req(method, path, { first_name: "X" }), ["email"])
          expectValidation(yield* req(method, path, { email: "broken" }), ["email"])
          expectValidation(yield* req(method, path, { email: address, first_name: "x".repeat(256) }), ["first_name"])
          const r = yield* req(method, path, { email: address, last_name: "New" })
          expectStatus(r, 200)
          expect(r.body.data).toEqual({ ...s, last_name: "New", updated_at: r.body.data.updated_at })
          const cleared = yield* req(method, path, { email: address, first_name: null, extra_attributes: { b: 2 } })
          expectStatus(cleared, 200)
          expect(cleared.body.data).toMatchObject({ first_name: null, last_name: "New", extra_attributes: { b: 2 }, tags: ["keep"] })
          const noAttrs = yield* req(method, path, { email: address, extra_attributes: null })
          expectStatus(noAttrs, 200)
          expect(noAttrs.body.data.extra_attributes).toEqual([])
          expect((yield* req("GET", path)).body.data).toEqual(noAttrs.body.data)
          expectMessageOnly(yield* req(method, `/api/subscribers/${UNKNOWN}`, { email: address }), 404)
        }))

      it.effect(`${method} changes the email (lower-cased) but not onto another subscriber of the list`, () =>
        Effect.gen(function*() {
          const list = yield* createList()
          const other = yield* createList()
          const a = yield* subscribe(list, { email: unique("a") + "@example.com" })
          const b = yield* subscribe(list, { email: unique("b") + "@example.com" })
          yield* subscribe(other, { email: unique("c") + "@example.com" })
          const taken = yield* req(method, `/api/subscribers/${a.uuid}`, { email: b.email.toUpperCase() })
          expectValidation(taken, ["email"])
          expect(taken.body.errors.email).toEqual(["There already is a subscriber on this list with this email."])
          expect((yield* req("GET", `/api/subscribers/${a.uuid}`)).body.data.email).toBe(a.email)
          const own = yield* req(method, `/api/subscribers/${a.uuid}`, { email: a.email.toUpperCase() })
          expectStatus(own, 200)
          expect(own.body.data.email).toBe(a.email)
          const fresh = unique("Fresh") + "@Example.com"
          const moved = yield* req(method, `/api/subscribers/${a.uuid}`, { email: fresh })
          expectStatus(moved, 200)
          expect(moved.body.data.email).toBe(fresh.toLowerCase())
          // the same address may exist in another list
          const elsewhere = yield* req("POST", `/api/email-lists/${other}/subscribers`, { email: fresh })
          expectStatus(elsewhere, 201)
          const found = yield* req("GET", `/api/email-lists/${list}/subscribers?filter[email]=${encodeURIComponent(fresh)}`)
          expect(found.body.data.map((s: { uuid: string }) => s.uuid)).toEqual([a.uuid])
        }))

      it.effect(`${method} tags replace the user tags; append_tags adds them`, () =>
        Effect.gen(function*() {
          const list = yield* createList()
          const s = yield* subscribe(list, { email: unique("tags") + "@example.com", tags: ["first"] })
          const path = `/api/subscribers/${s.uuid}`
          const replaced = yield* req(method, path, { email: s.email, tags: ["second", "beta"] })
          expectStatus(replaced, 200)
          expect(replaced.body.data.tags).toEqual(["beta", "second"])
          const appended = yield* req(method, path, { email: s.email, tags: ["alpha", "beta"], append_tags: true })
          expectStatus(appended, 200)
          expect(appended.body.data.tags).toEqual(["alpha", "beta", "second"])
          const untouched = yield* req(method, path, { email: s.email, first_name: "T" })
          expect(untouched.body.data.tags).toEqual(["alpha", "beta", "second"])
          const emptied = yield* req(method, path, { email: s.email, tags: [] })
          expectStatus(emptied, 200)
          expect(emptied.body.data.tags).toEqual([])
          expect(yield* listTagNames(list)).toEqual(["alpha", "beta", "first", "second"])
        }))
    }

    it.effect("DELETE answers 204, the subscriber is gone and its address can subscribe again", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const address = unique("del") + "@example.com"
        const s = yield* subscribe(list, { email: address })
        expect((yield* req("GET", `/api/email-lists/${list}`)).body.data.active_subscribers_count).toBe(1)
        const r = yield* req("DELETE", `/api/subscribers/${s.uuid}`)
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expectMessageOnly(yield* req("GET", `/api/subscribers/${s.uuid}`), 404)
        expectMessageOnly(yield* req("DELETE", `/api/subscribers/${s.uuid}`), 404)
        expectMessageOnly(yield* req("DELETE", `/api/subscribers/${UNKNOWN}`), 404)
        expect((yield* req("GET", `/api/email-lists/${list}`)).body.data.active_subscribers_count).toBe(0)
        const again = yield* req("POST", `/api/email-lists/${list}/subscribers`, { email: address })
        expectStatus(again, 201)
        expect(again.body.data.uuid).not.toBe(s.uuid)
        expect((yield* req("GET", `/api/email-lists/${list}`)).body.data.active_subscribers_count).toBe(1)
      }))

    it.effect("POST /tags adds tags case-insensitively and trimmed, creating list tags without duplicates", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const s = yield* subscribe(list, { email: unique("addtag") + "@example.com", tags: ["News"] })
        const r = yield* req("POST", `/api/subscribers/${s.uuid}/tags`, { tags: ["news", " Sports ", "sports", "NEWS"] })
        expectStatus(r, 200)
        expect(Object.keys(r.body)).toEqual(["data"])
        expect(r.body.data.uuid).toBe(s.uuid)
        expect(r.body.data.tags).toEqual(["News", "Sports"])
        expect(yield* listTagNames(list)).toEqual(["News", "Sports"])
        // an existing list tag is reused by another subscriber too
        const t = yield* subscribe(list, { email: unique("addtag2") + "@example.com" })
        const again = yield* req("POST", `/api/subscribers/${t.uuid}/tags`, { tags: ["SPORTS"] })
        expect(again.body.data.tags).toEqual(["Sports"])
        expect(yield* listTagNames(list)).toEqual(["News", "Sports"])
        expect((yield* req("GET", `/api/subscribers/${s.uuid}`)).body.data.tags).toEqual(["News", "Sports"])
      }))

    it.effect("DELETE /tags removes case-insensitively and ignores unknown names", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const s = yield* subscribe(list, { email: unique("rmtag") + "@example.com", tags: ["Alpha", "Beta", "Gamma"] })
        const r = yield* req("DELETE", `/api/subscribers/${s.uuid}/tags`, { tags: ["alpha", " GAMMA ", "nope"] })
        expectStatus(r, 200)
        expect(r.body.data.tags).toEqual(["Beta"])
        expect((yield* req("GET", `/api/subscribers/${s.uuid}`)).body.data.tags).toEqual(["Beta"])
        const none = yield* req("DELETE", `/api/subscribers/${s.uuid}/tags`, { tags: [] })
        expectStatus(none, 200)
        expect(none.body.data.tags).toEqual(["Beta"])
      }))

    it.effect("the tags endpoints require a tags array and a known subscriber", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const s = yield* subscribe(list, { email: unique("tagerr") + "@example.com" })
        for (const method of ["POST", "DELETE"]) {
          const path = `/api/subscribers/${s.uuid}/tags`
          expectValidation(yield* req(method, path, {}), ["tags"])
          expectValidation(yield* req(method, path, { tags: "vip" }), ["tags"])
          const numbers = yield* req(method, path, { tags: [1] })
          expect(numbers.status, numbers.text).toBe(422)
          expectMessageOnly(yield* req(method, `/api/subscribers/${UNKNOWN}/tags`, { tags: ["x"] }), 404)
        }
        expect((yield* req("GET", `/api/subscribers/${s.uuid}`)).body.data.tags).toEqual([])
      }))
  })
})
