import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, query, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const KEYS = ["created_at", "email", "reason", "updated_at", "uuid"]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

describe.each(stores)("suppressions on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const emails = (params: Record<string, string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/suppressions?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        return r.body.data.map((s: { email: string }) => s.email) as Array<string>
      })

    it.effect("POST {email} answers 201 with a manual suppression, email lower-cased and trimmed", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const local = unique("new")
        const r = yield* call("POST", "/api/suppressions", { body: { email: `  ${local.toUpperCase()}@Example.COM ` } })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        expect(Object.keys(r.body.data).sort()).toEqual(KEYS)
        expect(r.body.data.uuid).toMatch(UUID)
        expect(r.body.data.email).toBe(`${local}@example.com`)
        expect(r.body.data.reason).toBe("manual")
        expect(r.body.data.created_at).toMatch(TIMESTAMP)
        expect(r.body.data.updated_at).toMatch(TIMESTAMP)
      }))

    it.effect("POST of an address already suppressed answers 200 with the same record unchanged", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("dup")}@example.com`
        const first = yield* call("POST", "/api/suppressions", { body: { email, reason: "spam_complaint" } })
        expectStatus(first, 201)
        yield* Effect.sleep("15 millis")
        for (const again of [email, email.toUpperCase(), ` ${email} `]) {
          const r = yield* call("POST", "/api/suppressions", { body: { email: again, reason: "hard_bounce" } })
          expectStatus(r, 200)
          expect(r.body).toEqual(first.body)
        }
        const plain = yield* call("POST", "/api/suppressions", { body: { email } })
        expectStatus(plain, 200)
        expect(plain.body).toEqual(first.body)
        expect(yield* emails({ "filter[search]": email })).toEqual([email])
      }))

    it.effect("concurrent POSTs of one address create exactly one suppression", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("race")}@example.com`
        const replies = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => call("POST", "/api/suppressions", { body: { email: i % 2 ? email.toUpperCase() : email } })),
          { concurrency: "unbounded" }
        )
        for (const r of replies) expect([200, 201], r.text).toContain(r.status)
        expect(replies.filter((r) => r.status === 201).length).toBe(1)
        expect(new Set(replies.map((r) => r.body.data.uuid)).size).toBe(1)
        expect(yield* emails({ "filter[search]": email })).toEqual([email])
      }))

    it.effect("an address with + is found by its raw path", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("plus")}+tag@example.com`
        const created = yield* call("POST", "/api/suppressions", { body: { email } })
        expectStatus(created, 201)
        const raw = yield* call("GET", `/api/suppressions/${email}`)
        expectStatus(raw, 200)
        expect(raw.body).toEqual(created.body)
        const encoded = yield* call("GET", `/api/suppressions/${encodeURIComponent(email)}`)
        expect(encoded.body).toEqual(created.body)
      }))

    it.effect("reason is optional and must be hard_bounce, spam_complaint or manual", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const reason of ["hard_bounce", "spam_complaint", "manual"]) {
          const r = yield* call("POST", "/api/suppressions", { body: { email: `${unique(reason)}@x.org`, reason } })
          expectStatus(r, 201)
          expect(r.body.data.reason).toBe(reason)
        }
        for (const reason of ["bogus", "", "MANUAL", "soft_bounce", 5, true, ["manual"]]) {
          const email = `${unique("badreason")}@x.org`
          expectValidation(yield* call("POST", "/api/suppressions", { body: { email, reason } }), ["reason"])
          expectMessageOnly(yield* call("GET", `/api/suppressions/${encodeURIComponent(email)}`), 404)
        }
      }))

    it.effect("a missing or invalid email answers 422 on email", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const bodies: Array<unknown> = [
          {},
          { reason: "manual" },
          { email: "" },
          { email: "   " },
          { email: null },
          { email: 42 },
          { email: "not-an-email" },
          { email: "a@" },
          { email: "@example.com" },
          { email: "a b@example.com" },
          { email: "a@@example.com" },
          { email: ["a@example.com"] }
        ]
        for (const body of bodies) {
          expectValidation(yield* call("POST", "/api/suppressions", { body }), ["email"])
        }
        const both = yield* call("POST", "/api/suppressions", { body: { email: "nope", reason: "nope" } })
        expectValidation(both, ["email", "reason"])
        const malformed = yield* call("POST", "/api/suppressions", { body: "{oops" })
        expect(malformed.status).toBe(422)
        expect(typeof malformed.body?.message).toBe("string")
      }))

    it.effect("GET finds a suppression by uuid and by email address, case-insensitively", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("get")}@example.com`
        const created = (yield* call("POST", "/api/suppressions", { body: { email } })).body
        const byUuid = yield* call("GET", `/api/suppressions/${created.data.uuid}`)
        expectStatus(byUuid, 200)
        expect(byUuid.body).toEqual(created)
        for (const address of [email, email.toUpperCase()]) {
          const byEmail = yield* call("GET", `/api/suppressions/${encodeURIComponent(address)}`)
          expectStatus(byEmail, 200)
          expect(byEmail.body).toEqual(created)
        }
        const raw = yield* call("GET", `/api/suppressions/${email}`)
        expectStatus(raw, 200)
        expect(raw.body).toEqual(created)
      }))

    it.effect("unknown uuids, addresses and garbage ids answer 404 {message}", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const ids = [crypto.randomUUID(), encodeURIComponent("nobody@example.com"), "abc", "99999999999999", "%20", "1"]
        for (const id of ids) {
          expectMessageOnly(yield* call("GET", `/api/suppressions/${id}`), 404)
          expectMessageOnly(yield* call("DELETE", `/api/suppressions/${id}`), 404)
        }
      }))

    it.effect("DELETE answers 204, then 404; the address can be suppressed again", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("del")}@example.com`
        const created = (yield* call("POST", "/api/suppressions", { body: { email, reason: "hard_bounce" } })).body.data
        const del = yield* call("DELETE", `/api/suppressions/${created.uuid}`)
        expectStatus(del, 204)
        expect(del.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/suppressions/${created.uuid}`), 404)
        expectMessageOnly(yield* call("GET", `/api/suppressions/${encodeURIComponent(email)}`), 404)
        expectMessageOnly(yield* call("DELETE", `/api/suppressions/${created.uuid}`), 404)
        expect(yield* emails({ "filter[search]": email })).toEqual([])
        const again = yield* call("POST", "/api/suppressions", { body: { email } })
        expectStatus(again, 201)
        expect(again.body.data.reason).toBe("manual")
      }))

    it.effect("DELETE by email address removes the suppression", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("delmail")}@example.com`
        const created = (yield* call("POST", "/api/suppressions", { body: { email } })).body.data
        expectStatus(yield* call("DELETE", `/api/suppressions/${encodeURIComponent(email.toUpperCase())}`), 204)
        expectMessageOnly(yield* call("GET", `/api/suppressions/${created.uuid}`), 404)
      }))

    it.effect("the list is newest first by default; sort=created_at is oldest first", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("order")}.example`
        const created: Array<string> = []
        for (const local of ["b", "a", "c"]) {
          const r = yield* call("POST", "/api/suppressions", { body: { email: `${local}@${domain}` } })
          expectStatus(r, 201)
          created.push(r.body.data.email)
          yield* Effect.sleep("15 millis")
        }
        expect(yield* emails({ "filter[search]": domain })).toEqual([...created].reverse())
        expect(yield* emails({ "filter[search]": domain, sort: "-created_at" })).toEqual([...created].reverse())
        expect(yield* emails({ "filter[search]": domain, sort: "created_at" })).toEqual(created)
      }))

    it.effect("filter[reason] is exact and filter[search] a case-insensitive substring of the email", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("filt")}.example`
        for (const [local, reason] of [["hb", "hard_bounce"], ["sc", "spam_complaint"], ["mn", "manual"]]) {
          expectStatus(yield* call("POST", "/api/suppressions", { body: { email: `${local}@${domain}`, reason } }), 201)
        }
        expect(yield* emails({ "filter[search]": domain, "filter[reason]": "hard_bounce" })).toEqual([`hb@${domain}`])
        expect(yield* emails({ "filter[search]": domain, "filter[reason]": "hard" })).toEqual([])
        const all = yield* call("GET", `/api/suppressions?${query({ per_page: 100, "filter[reason]": "spam_complaint" })}`)
        expect(all.body.data.length).toBeGreaterThan(0)
        for (const s of all.body.data) expect(s.reason).toBe("spam_complaint")
        expect(yield* emails({ "filter[search]": `SC@${domain.toUpperCase()}` })).toEqual([`sc@${domain}`])
        expect((yield* emails({ "filter[search]": domain })).length).toBe(3)
      }))

    it.effect("filter[search] treats _ and % literally", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("lit")}.example`
        for (const local of ["a_b", "axb", "c%d", "cxd"]) {
          expectStatus(yield* call("POST", "/api/suppressions", { body: { email: `${local}@${domain}` } }), 201)
        }
        expect(yield* emails({ "filter[search]": `a_b@${domain}` })).toEqual([`a_b@${domain}`])
        expect(yield* emails({ "filter[search]": `c%d@${domain}` })).toEqual([`c%d@${domain}`])
      }))

    it.effect("an unknown sort or filter answers 400 naming the allowed ones", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        expectMessageOnly(
          yield* call("GET", "/api/suppressions?sort=email"),
          400,
          "Requested sort(s) `email` is not allowed. Allowed sort(s) are `created_at`."
        )
        const filter = yield* call("GET", "/api/suppressions?filter[email]=x")
        expectMessageOnly(filter, 400)
        expect(filter.body.message).toMatch(/^Requested filter\(s\) `email` are not allowed\. Allowed filter\(s\) are /)
        expect(filter.body.message).toContain("`search`")
        expect(filter.body.message).toContain("`reason`")
      }))
  })
})
