import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, hasTagKey, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const KEYS = ["created_at", "fields", "html", "id", "name", "structured_html", "updated_at", "uuid"]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const GARBAGE_IDS = [
  "abc",
  "99999999999999",
  "12345678901234567890123",
  "%20",
  "-1",
  "0",
  "1.5",
  "1e3",
  "00000000-0000-0000-0000-000000000000",
  "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent("é"),
  "x".repeat(300)
]

describe.each(stores)("templates on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("POST creates a template and answers 201 with the full resource", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/templates", {
          body: { name: "Welcome 🎉 Ünïcödé", html: "<p>[[[title]]] [[[body:text]]]</p>", structured_html: "{}" }
        })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        const t = r.body.data
        expect(Object.keys(t).sort()).toEqual(KEYS)
        expect(Number.isInteger(t.id)).toBe(true)
        expect(t.uuid).toMatch(UUID)
        expect(t.name).toBe("Welcome 🎉 Ünïcödé")
        expect(t.html).toBe("<p>[[[title]]] [[[body:text]]]</p>\n")
        expect(t.structured_html).toBe("{}")
        expect(t.fields).toEqual([{ name: "title", type: "editor" }, { name: "body", type: "text" }])
        expect(t.created_at).toMatch(TIMESTAMP)
        expect(t.updated_at).toMatch(TIMESTAMP)
      }))

    it.effect("html is returned ending with exactly one newline", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const [html, expected] of [["<p>a</p>", "<p>a</p>\n"], ["<p>b</p>\n", "<p>b</p>\n"], ["<p>c</p>\n\n\n", "<p>c</p>\n"]]) {
          const created = yield* call("POST", "/api/templates", { body: { name: unique("nl"), html } })
          expectStatus(created, 201)
          expect(created.body.data.html).toBe(expected)
          const read = yield* call("GET", `/api/templates/${created.body.data.uuid}`)
          expect(read.body.data.html).toBe(expected)
        }
      }))

    it.effect("without html a default layout with a [[[content]]] slot is stored; structured_html defaults to null", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/templates", { body: { name: unique("default") } })
        expectStatus(r, 201)
        expect(r.body.data.html).toContain("[[[content]]]")
        expect(r.body.data.html).toMatch(/[^\n]\n$/)
        expect(r.body.data.structured_html).toBeNull()
        expect(r.body.data.fields.map((f: { name: string }) => f.name)).toContain("content")
      }))

    it.effect("html without placeholders has the single field html", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/templates", { body: { name: unique("plain"), html: "<p>plain</p>" } })
        expect(r.body.data.fields.map((f: { name: string }) => f.name)).toEqual(["html"])
      }))

    it.effect("GET finds a template by uuid and by integer id", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = (yield* call("POST", "/api/templates", { body: { name: unique("get"), html: "x" } })).body.data
        const byUuid = yield* call("GET", `/api/templates/${created.uuid}`)
        expectStatus(byUuid, 200)
        expect(byUuid.body).toEqual({ data: created })
        const byId = yield* call("GET", `/api/templates/${created.id}`)
        expectStatus(byId, 200)
        expect(byId.body).toEqual({ data: created })
        const put = yield* call("PUT", `/api/templates/${created.id}`, { body: { name: "renamed by id", html: "y" } })
        expectStatus(put, 200)
        expect(put.body.data.uuid).toBe(created.uuid)
        const del = yield* call("DELETE", `/api/templates/${created.id}`)
        expectStatus(del, 204)
        expectMessageOnly(yield* call("GET", `/api/templates/${created.uuid}`), 404)
      }))

    it.effect("PUT is a full replace: absent html becomes \"\\n\", absent structured_html null", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = (yield* call("POST", "/api/templates", {
          body: { name: unique("put"), html: "<p>[[[a]]]</p>", structured_html: "{\"a\":1}" }
        })).body.data
        yield* Effect.sleep("20 millis")
        const r = yield* call("PUT", `/api/templates/${created.uuid}`, { body: { name: "Replaced" } })
        expectStatus(r, 200)
        expect(Object.keys(r.body.data).sort()).toEqual(KEYS)
        expect(r.body.data).toMatchObject({ id: created.id, uuid: created.uuid, name: "Replaced", html: "\n" })
        expect(r.body.data.structured_html).toBeNull()
        expect(r.body.data.created_at).toBe(created.created_at)
        expect(r.body.data.updated_at).toMatch(TIMESTAMP)
        expect(r.body.data.updated_at).not.toBe(created.updated_at)
        expect(r.body.data.updated_at > created.updated_at).toBe(true)
        const read = yield* call("GET", `/api/templates/${created.uuid}`)
        expect(read.body).toEqual(r.body)
      }))

    it.effect("DELETE answers 204 with an empty body, then GET, PUT and DELETE answer 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = (yield* call("POST", "/api/templates", { body: { name: unique("del") } })).body.data
        const del = yield* call("DELETE", `/api/templates/${created.uuid}`)
        expectStatus(del, 204)
        expect(del.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/templates/${created.uuid}`), 404)
        expectMessageOnly(yield* call("PUT", `/api/templates/${created.uuid}`, { body: { name: "x" } }), 404)
        expectMessageOnly(yield* call("DELETE", `/api/templates/${created.uuid}`), 404)
        expectMessageOnly(yield* call("GET", `/api/templates/${created.id}`), 404)
      }))

    it.effect("unknown and garbage ids answer 404 {message}, never 5xx", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const id of [crypto.randomUUID(), ...GARBAGE_IDS]) {
          expectMessageOnly(yield* call("GET", `/api/templates/${id}`), 404)
          expectMessageOnly(yield* call("PUT", `/api/templates/${id}`, { body: { name: "x" } }), 404)
          expectMessageOnly(yield* call("DELETE", `/api/templates/${id}`), 404)
        }
      }))

    it.effect("PUT validates the body before looking the template up (422 before 404)", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const reply = yield* call("PUT", `/api/templates/${crypto.randomUUID()}`, { body: { name: "" } })
        expect(reply.status).toBe(422)
        expect(reply.body.errors).toEqual({ name: ["The name field is required."] })
      }))

    it.effect("an invalid name answers 422 {message, errors} keyed by name", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const bodies: Array<Record<string, unknown>> = [
          {},
          { html: "<p>x</p>" },
          { name: "" },
          { name: "   " },
          { name: "\t\n" },
          { name: null },
          { name: 42 },
          { name: true },
          { name: ["a"] },
          { name: { a: 1 } },
          { name: "x".repeat(256) }
        ]
        const existing = (yield* call("POST", "/api/templates", { body: { name: unique("valid") } })).body.data
        for (const body of bodies) {
          expectValidation(yield* call("POST", "/api/templates", { body }), ["name"])
          expectValidation(yield* call("PUT", `/api/templates/${existing.uuid}`, { body }), ["name"])
        }
        expect((yield* call("GET", `/api/templates/${existing.uuid}`)).body.data).toEqual(existing)
      }))

    it.effect("a name of exactly 255 characters is accepted", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const name of ["n".repeat(255), "é".repeat(255)]) {
          const r = yield* call("POST", "/api/templates", { body: { name } })
          expectStatus(r, 201)
          expect(r.body.data.name).toBe(name)
          expect((yield* call("GET", `/api/templates/${r.body.data.uuid}`)).body.data.name).toBe(name)
        }
      }))

    it.effect("invalid html and structured_html are reported together with name", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/templates", { body: { name: "", html: 5, structured_html: 7 } })
        expectValidation(r, ["name", "html", "structured_html"])
        expectValidation(yield* call("POST", "/api/templates", { body: { name: "ok", html: ["x"] } }), ["html"])
        expectValidation(yield* call("POST", "/api/templates", { body: { name: "ok", structured_html: {} } }), [
          "structured_html"
        ])
      }))

    it.effect("a body that is not a JSON object answers 422 JSON", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const existing = (yield* call("POST", "/api/templates", { body: { name: unique("json") } })).body.data
        for (const raw of ["{oops", "", "{\"name\": \"a\",}", "[]", "null", "\"name\"", "42"]) {
          for (const [method, path] of [["POST", "/api/templates"], ["PUT", `/api/templates/${existing.uuid}`]] as const) {
            const r = yield* call(method, path, { body: raw })
            expect(r.status, `${method} ${JSON.stringify(raw)}: ${r.text}`).toBe(422)
            expect(typeof r.body?.message, `${method} ${JSON.stringify(raw)}: ${r.text}`).toBe("string")
            expect(hasTagKey(r.body)).toBe(false)
          }
        }
      }))

    it.effect("no error body carries a _tag key", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const replies = [
          yield* call("GET", `/api/templates/${crypto.randomUUID()}`),
          yield* call("POST", "/api/templates", { body: {} }),
          yield* call("POST", "/api/templates", { body: "{" }),
          yield* call("GET", "/api/templates?sort=bogus"),
          yield* call("GET", "/api/templates?filter[x]=1"),
          yield* call("GET", "/api/templates", { token: null }),
          yield* call("GET", "/api/templates", { token: "wrong" })
        ]
        for (const r of replies) {
          expect(r.status).toBeGreaterThanOrEqual(400)
          expect(r.status).toBeLessThan(500)
          expect(hasTagKey(r.body), r.text).toBe(false)
          expect(r.text).not.toContain("_tag")
        }
      }))
  })

  layer(TestServerLive(store), { excludeTestServices: true })("validation failures change nothing", (it) => {
    it.effect("the total is unchanged after rejected requests", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const existing = (yield* call("POST", "/api/templates", { body: { name: "Keep", html: "<p>keep</p>" } })).body
          .data
        const before = yield* call("GET", "/api/templates")
        expect(before.body.meta.total).toBe(1)
        for (const body of [{}, { name: "" }, { name: "ok", html: 5 }, "{oops"]) {
          expect((yield* call("POST", "/api/templates", { body })).status).toBe(422)
          expect((yield* call("PUT", `/api/templates/${existing.uuid}`, { body })).status).toBe(422)
        }
        const after = yield* call("GET", "/api/templates")
        expect(after.body.meta.total).toBe(1)
        expect(after.body.data).toEqual([existing])
      }))
  })
})
