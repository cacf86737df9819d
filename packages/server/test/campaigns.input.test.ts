import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("campaign bodies and access on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("In "), default_from_email: "n@example.com" } })
      expectStatus(r, 201)
      return r.body.data as { id: number; uuid: string }
    })
    const post = (body: unknown, headers?: Record<string, string>) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", "/api/campaigns", { body, ...(headers ? { headers } : {}) }))

    it.effect("the integer email_list_id is accepted in place of email_list_uuid, on create and update", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const r = yield* post({ name: "by id", email_list_id: list.id })
        expectStatus(r, 201)
        expect(r.body.data.email_list_uuid).toBe(list.uuid)
        const other = yield* newList
        const put = yield* call("PUT", `/api/campaigns/${r.body.data.uuid}`, { body: { name: "moved", email_list_id: other.id } })
        expectStatus(put, 200)
        expect(put.body.data.email_list_uuid).toBe(other.uuid)
        expectValidation(yield* post({ name: "bad id", email_list_id: 987654321 }), ["email_list_uuid"])
      }))

    it.effect("an unknown template_uuid is ignored: no template, html stays null", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const r = yield* post({ name: "tpl?", email_list_uuid: list.uuid, template_uuid: "00000000-0000-4000-8000-000000000000" })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({ template_uuid: null, html: null })
      }))

    it.effect("wrongly typed fields answer 422 naming each field", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const base = { name: "typed", email_list_uuid: list.uuid }
        expectValidation(yield* post({ ...base, fields: "text" }), ["fields"])
        const nested = yield* post({ ...base, fields: { title: 5 } })
        expectValidation(nested, [])
        expect(Object.keys(nested.body.errors).some((key) => key === "fields" || key === "fields.title")).toBe(true)
        expectValidation(yield* post({ ...base, utm_tags: "maybe" }), ["utm_tags"])
        expectValidation(yield* post({ ...base, from_email: "not an email" }), ["from_email"])
        expectValidation(yield* post({ ...base, subject: 42 }), ["subject"])
        expectValidation(yield* post({ ...base, html: ["<p>"] }), ["html"])
        expectValidation(yield* post({ ...base, segment_uuid: 7 }), ["segment_uuid"])
      }))

    it.effect("type may only be draft: other values answer 422 and create nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const name = unique("typed ")
        expectValidation(yield* post({ name, email_list_uuid: list.uuid, type: "automated" }), ["type"])
        expectValidation(yield* post({ name, email_list_uuid: list.uuid, type: 1 }), ["type"])
        const listed = yield* call("GET", `/api/campaigns?filter[search]=${encodeURIComponent(name)}`)
        expect(listed.body.data).toEqual([])
        const draft = yield* post({ name, email_list_uuid: list.uuid, type: "draft" })
        expectStatus(draft, 201)
        expect(draft.body.data.status).toBe("draft")
      }))

    it.effect("every invalid field is reported at once (missing name and missing list)", () =>
      Effect.gen(function*() {
        expectValidation(yield* post({}), ["name", "email_list_uuid"])
        expectValidation(yield* post({ subject: "only a subject" }), ["name", "email_list_uuid"])
      }))

    it.effect("a malformed JSON body answers a 4xx with a JSON message, never a 5xx", () =>
      Effect.gen(function*() {
        for (const body of ["{not json", "[]", "null", "\"text\""]) {
          const r = yield* post(body)
          expect(r.status, `${body} → ${r.status} ${r.text}`).toBeGreaterThanOrEqual(400)
          expect(r.status, `${body} → ${r.status} ${r.text}`).toBeLessThan(500)
          expect(typeof r.body?.message).toBe("string")
        }
      }))

    it.effect("every campaign and send endpoint answers 401 without a valid token", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const id = "00000000-0000-4000-8000-000000000000"
        const endpoints: Array<[string, string]> = [
          ["GET", "/api/campaigns"],
          ["POST", "/api/campaigns"],
          ["GET", `/api/campaigns/${id}`],
          ["PUT", `/api/campaigns/${id}`],
          ["DELETE", `/api/campaigns/${id}`],
          ["POST", `/api/campaigns/${id}/send`],
          ["POST", `/api/campaigns/${id}/send-test`],
          ["POST", `/api/campaigns/${id}/pause`],
          ["POST", `/api/campaigns/${id}/resume`],
          ["GET", "/api/sends"],
          ["GET", `/api/sends/${id}`],
          ["DELETE", `/api/sends/${id}`]
        ]
        for (const [method, path] of endpoints) {
          for (const token of [null, "wrong-token"]) {
            const r = yield* call(method, path, { token, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) })
            expect(r.status, `${method} ${path}`).toBe(401)
            expect(typeof r.body?.message).toBe("string")
          }
        }
      }))
  })
})
