import { FetchHttpClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { makeMailroomClient } from "@mailroom/http"
import { Effect } from "effect"
import { stores, TestServer, TestServerLive, TOKEN } from "./TestServer.js"

describe.each(stores)("typed client on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("creates, lists, reads and deletes through the client derived from the Api", () =>
      Effect.gen(function*() {
        const { url } = yield* TestServer
        const client = yield* makeMailroomClient({ baseUrl: url, token: TOKEN })
        const created = yield* client.templates.create({ payload: { name: "Typed", html: "<p>[[[content]]]</p>" } })
        expect(created.data).toMatchObject({ name: "Typed", html: "<p>[[[content]]]</p>\n" })
        const page = yield* client.templates.list({ urlParams: { "filter[search]": "typ" } })
        expect(page.meta.total).toBe(1)
        const read = yield* client.templates.get({ path: { template: created.data.uuid } })
        expect(read.data.id).toBe(created.data.id)
        yield* client.templates.delete({ path: { template: created.data.uuid } })
        const missing = yield* Effect.flip(client.templates.get({ path: { template: created.data.uuid } }))
        expect(missing).toMatchObject({ _tag: "NotFound", message: "Template not found." })
      }).pipe(Effect.provide(FetchHttpClient.layer)))

    it.effect("validates payloads before sending, and decodes server 422s into ValidationError", () =>
      Effect.gen(function*() {
        const { url } = yield* TestServer
        const client = yield* makeMailroomClient({ baseUrl: url, token: TOKEN })
        const local = yield* Effect.flip(client.suppressions.create({ payload: { email: "not-an-email" } }))
        expect(local._tag).toBe("ParseError")
        const remote = yield* Effect.flip(client.emailLists.create({
          payload: { name: "Reports", defaultFromEmail: "news@example.com", reportCampaignSent: true }
        }))
        expect(remote).toMatchObject({
          _tag: "ValidationError",
          errors: { report_recipients: ["The report recipients field is required when a report is enabled."] }
        })
      }).pipe(Effect.provide(FetchHttpClient.layer)))

    it.effect("sends a transactional mail, reads it from the log and gets 406 as MailSuppressed", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const client = yield* makeMailroomClient({ baseUrl: url, token: TOKEN })
        const template = yield* client.transactionalMails.createTemplate({
          payload: { name: "Typed receipt", subject: "Receipt {{ number }}", html: "<p>Thanks</p>" }
        })
        expect(template.data).toMatchObject({ name: "Typed receipt", sent_count: 0 })
        const sent = yield* client.transactionalMails.send({
          payload: { mailName: "typed receipt", from: "shop@example.com", to: "buyer@example.com", replacements: { number: 7 } }
        })
        const uuid = sent === undefined ? "" : sent.uuid
        const logged = yield* client.transactionalMails.getMail({ path: { mail: uuid } })
        expect(logged.data).toMatchObject({ subject: "Receipt 7", status: "pending", mail_name: "Typed receipt" })
        yield* call("POST", "/api/suppressions", { body: { email: "blocked@example.com", reason: "manual" } })
        const refused = yield* Effect.flip(client.transactionalMails.send({
          payload: { from: "shop@example.com", to: "blocked@example.com", subject: "x", html: "y" }
        }))
        expect(refused).toMatchObject({ _tag: "MailSuppressed", suppressed: ["blocked@example.com"] })
      }).pipe(Effect.provide(FetchHttpClient.layer)))
  })
})
