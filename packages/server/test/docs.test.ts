import { describe, expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { expectMessageOnly, expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("documentation and server limits on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("/api/openapi.json answers 200 without a token and describes an OpenAPI 3.1 API", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", "/api/openapi.json", { token: null })
        expectStatus(r, 200)
        expect(r.headers.get("content-type") ?? "").toContain("json")
        expect(typeof r.body.openapi).toBe("string")
        expect(r.body.openapi.startsWith("3.1")).toBe(true)
        const paths = Object.keys(r.body.paths ?? {})
        for (const path of ["/api/templates", "/api/email-lists", "/api/suppressions"]) expect(paths).toContain(path)
        const schemes = Object.values(r.body.components?.securitySchemes ?? {}) as Array<
          { type?: string; scheme?: string }
        >
        expect(schemes.some((s) => s.type === "http" && s.scheme?.toLowerCase() === "bearer")).toBe(true)
        expect(r.text).not.toContain("test-token-with-all-abilities")
        const withToken = yield* call("GET", "/api/openapi.json")
        expectStatus(withToken, 200)
        expect(withToken.body).toEqual(r.body)
      }))

    it.effect("/docs answers 200 without a token", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", "/docs", { token: null, headers: { accept: "text/html" } })
        expectStatus(r, 200)
        // Swagger UI (its script is loaded on the first visit, not at start-up) with the API's own document
        expect(r.text).toContain("SwaggerUIBundle")
        expect(r.text).toContain("/api/templates")
        const again = yield* call("GET", "/docs", { token: null, headers: { accept: "text/html" } })
        expect(again.text).toBe(r.text)
      }))

    it.effect("unknown routes answer 404 JSON {message}", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (
          const [method, path] of [
            ["GET", "/api/nothing"],
            ["POST", "/api/nothing"],
            ["GET", "/api/templates/a/b"],
            ["GET", "/api/campaigns-nope"],
            ["DELETE", "/api/templates"]
          ] as const
        ) {
          const r = yield* call(method, path, method === "POST" ? { body: {} } : {})
          expect(r.status, `${method} ${path} -> ${r.text}`).toBeGreaterThanOrEqual(404)
          expect(r.status, `${method} ${path} -> ${r.text}`).toBeLessThan(406)
          expectMessageOnly(r, r.status)
        }
        expectMessageOnly(yield* call("GET", "/api/nothing"), 404)
      }))

    it.effect("a request body over 10 MiB answers 413 JSON {message}", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const html = "x".repeat(11 * 1024 * 1024)
        const before = (yield* call("GET", "/api/templates")).body.meta.total
        const exit = yield* Effect.exit(call("POST", "/api/templates", { body: { name: unique("huge"), html } }))
        if (Exit.isFailure(exit)) {
          expect.fail(`no HTTP response, the connection failed: ${Cause.pretty(exit.cause).split("\n")[0]}`)
        } else {
          expectMessageOnly(exit.value, 413)
        }
        expect((yield* call("GET", "/api/templates")).body.meta.total).toBe(before)
      }))

    it.effect("a large body under the limit is accepted (a 5 MB CSV part)", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("big"), default_from_email: "b@example.com" } })).body.data
        const csv = `email\n${"someone@example.com\n".repeat(Math.ceil((5 * 1024 * 1024) / 20))}`
        const r = yield* call("POST", "/api/subscriber-imports", {
          body: { subscribers_csv: csv, email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        })
        expectStatus(r, 200)
        const read = yield* call("GET", `/api/subscriber-imports/${r.body.data.id}`)
        expect(read.body.data.subscribers_csv.length).toBe(csv.length)
      }))
  })
})
