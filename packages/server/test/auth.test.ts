import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, unique } from "./expectations.js"
import { type CallOptions, stores, TestServer, TestServerLive } from "./TestServer.js"

const UNAUTHORIZED = "Unauthorized."
const FORBIDDEN = "This action is unauthorized."

/** Ways of sending no valid credentials. */
const badCredentials: ReadonlyArray<[string, CallOptions]> = [
  ["no Authorization header", { token: null }],
  ["a wrong bearer token", { token: "not-a-real-token" }],
  ["Basic credentials", { token: null, headers: { authorization: "Basic xyz" } }],
  ["an empty bearer token", { token: null, headers: { authorization: "Bearer " } }],
  ["the bare word Bearer", { token: null, headers: { authorization: "Bearer" } }],
  ["the token without the Bearer scheme", { token: null, headers: { authorization: "test-token-with-all-abilities" } }]
]

describe.each(stores)("authentication and permissions on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** One existing resource of each kind, and a body that would create each. */
    const fixtures = Effect.gen(function*() {
      const { call } = yield* TestServer
      const template = (yield* call("POST", "/api/templates", { body: { name: unique("auth") } })).body.data
      const list = (yield* call("POST", "/api/email-lists", {
        body: { name: unique("auth"), default_from_email: "a@example.com" }
      })).body.data
      const suppression = (yield* call("POST", "/api/suppressions", { body: { email: `${unique("auth")}@example.com` } }))
        .body.data
      return { template, list, suppression }
    })

    /** Every route of the API with a body valid for writes. */
    const routes = Effect.gen(function*() {
      const { list, suppression, template } = yield* fixtures
      const unknown = crypto.randomUUID()
      const templateBody = { name: unique("t") }
      const listBody = { name: unique("l"), default_from_email: "b@example.com" }
      const suppressionBody = { email: `${unique("s")}@example.com` }
      return [
        ["GET", "/api/templates", undefined],
        ["POST", "/api/templates", templateBody],
        ["GET", `/api/templates/${template.uuid}`, undefined],
        ["GET", `/api/templates/${template.id}`, undefined],
        ["GET", `/api/templates/${unknown}`, undefined],
        ["GET", "/api/templates/abc", undefined],
        ["PUT", `/api/templates/${template.uuid}`, templateBody],
        ["PUT", `/api/templates/${unknown}`, templateBody],
        ["DELETE", `/api/templates/${template.uuid}`, undefined],
        ["DELETE", `/api/templates/${unknown}`, undefined],
        ["GET", "/api/email-lists", undefined],
        ["POST", "/api/email-lists", listBody],
        ["GET", `/api/email-lists/${list.uuid}`, undefined],
        ["GET", `/api/email-lists/${unknown}`, undefined],
        ["PUT", `/api/email-lists/${list.uuid}`, listBody],
        ["PUT", `/api/email-lists/${unknown}`, listBody],
        ["DELETE", `/api/email-lists/${list.uuid}`, undefined],
        ["DELETE", `/api/email-lists/${unknown}`, undefined],
        ["GET", "/api/suppressions", undefined],
        ["POST", "/api/suppressions", suppressionBody],
        ["GET", `/api/suppressions/${suppression.uuid}`, undefined],
        ["GET", `/api/suppressions/${encodeURIComponent(suppression.email)}`, undefined],
        ["GET", `/api/suppressions/${unknown}`, undefined],
        ["DELETE", `/api/suppressions/${suppression.uuid}`, undefined],
        ["DELETE", `/api/suppressions/${unknown}`, undefined]
      ] as const
    })

    /** The state a client can see, to show that refused requests changed nothing. */
    const snapshot = Effect.gen(function*() {
      const { call } = yield* TestServer
      const lists: Array<unknown> = []
      for (const path of ["/api/templates", "/api/email-lists", "/api/suppressions"]) {
        lists.push((yield* call("GET", `${path}?per_page=100`)).body.data)
      }
      return lists
    })

    it.effect("every route answers 401 {\"message\":\"Unauthorized.\"} without valid credentials", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const all = yield* routes
        const before = yield* snapshot
        for (const [label, options] of badCredentials) {
          for (const [method, path, body] of all) {
            const r = yield* call(method, path, { ...options, ...(body === undefined ? {} : { body }) })
            expect(r.status, `${label}: ${method} ${path} -> ${r.text}`).toBe(401)
            expectMessageOnly(r, 401, UNAUTHORIZED)
            expect(r.text).toBe("{\"message\":\"Unauthorized.\"}")
          }
        }
        expect(yield* snapshot).toEqual(before)
      }))

    it.effect("401 comes before validation and unknown ids", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const body of [{}, { name: "" }, "{oops"]) {
          expectMessageOnly(yield* call("POST", "/api/templates", { token: null, body }), 401, UNAUTHORIZED)
          expectMessageOnly(yield* call("POST", "/api/email-lists", { token: "wrong", body }), 401, UNAUTHORIZED)
          expectMessageOnly(yield* call("POST", "/api/suppressions", { token: null, body }), 401, UNAUTHORIZED)
        }
        expectMessageOnly(yield* call("GET", "/api/templates?sort=bogus", { token: null }), 401, UNAUTHORIZED)
        expectMessageOnly(yield* call("GET", "/api/templates/99999999999999", { token: null }), 401, UNAUTHORIZED)
      }))

    it.effect("a read-only token may GET but every change answers 403 and changes nothing", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["read"])
        const all = yield* routes
        const before = yield* snapshot
        for (const [method, path, body] of all) {
          const r = yield* call(method, path, { token, ...(body === undefined ? {} : { body }) })
          if (method === "GET") {
            const withAll = yield* call(method, path)
            expect(r.status, `${method} ${path} -> ${r.text}`).toBe(withAll.status)
            expect(r.body).toEqual(withAll.body)
          } else {
            expect(r.status, `${method} ${path} -> ${r.text}`).toBe(403)
            expectMessageOnly(r, 403, FORBIDDEN)
          }
        }
        expect(yield* snapshot).toEqual(before)
        expectStatus(yield* call("GET", "/api/templates", { token }), 200)
        expectStatus(yield* call("GET", "/api/email-lists", { token }), 200)
        expectStatus(yield* call("GET", "/api/suppressions", { token }), 200)
      }))

    it.effect("403 comes before validation and unknown ids", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["read"])
        expectMessageOnly(yield* call("POST", "/api/templates", { token, body: {} }), 403, FORBIDDEN)
        expectMessageOnly(yield* call("POST", "/api/templates", { token, body: "{oops" }), 403, FORBIDDEN)
        expectMessageOnly(yield* call("DELETE", `/api/templates/${crypto.randomUUID()}`, { token }), 403, FORBIDDEN)
        expectMessageOnly(yield* call("PUT", "/api/email-lists/abc", { token, body: {} }), 403, FORBIDDEN)
      }))

    it.effect("a send-only token may use none of these routes", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["send"])
        const all = yield* routes
        const before = yield* snapshot
        for (const [method, path, body] of all) {
          const r = yield* call(method, path, { token, ...(body === undefined ? {} : { body }) })
          expect(r.status, `${method} ${path} -> ${r.text}`).toBe(403)
          expectMessageOnly(r, 403, FORBIDDEN)
        }
        expect(yield* snapshot).toEqual(before)
      }))

    it.effect("a write token can create, update and delete", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["write"])
        const created = yield* call("POST", "/api/templates", { token, body: { name: unique("w") } })
        expectStatus(created, 201)
        expectStatus(yield* call("PUT", `/api/templates/${created.body.data.uuid}`, { token, body: { name: "w2" } }), 200)
        expectStatus(yield* call("DELETE", `/api/templates/${created.body.data.uuid}`, { token }), 204)
        expectStatus(
          yield* call("POST", "/api/email-lists", { token, body: { name: "w", default_from_email: "w@example.com" } }),
          201
        )
        expectStatus(yield* call("POST", "/api/suppressions", { token, body: { email: `${unique("w")}@x.org` } }), 201)
      }))

    it.effect("a token with all abilities, created later, works like the seeded one", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["all"])
        expectStatus(yield* call("GET", "/api/templates", { token }), 200)
        expectStatus(yield* call("POST", "/api/templates", { token, body: { name: unique("all") } }), 201)
      }))
  })
})
