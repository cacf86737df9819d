import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

/** The html with the per-mail parts of Mailroom's own links (ids, signatures) blanked out. */
const withoutLinkIds = (html: string) => html.replace(new RegExp(`${APP_URL}/[^"' ]*`, "g"), (url) => url.split("/").slice(0, 5).join("/"))

describe.each(stores)("campaign previews on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list with Ada (with an extra attribute), a template with a Markdown slot, and another list with Bob. */
    const fixture = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("p")}.example`
      const listName = unique("Preview ")
      const list = (yield* call("POST", "/api/email-lists", {
        body: { name: listName, default_from_email: `n@${domain}`, requires_confirmation: false }
      })).body.data.uuid as string
      const ada = (yield* call("POST", `/api/email-lists/${list}/subscribers`, {
        body: { email: `ada@${domain}`, first_name: "Ada", extra_attributes: { company: "ACME" } }
      })).body.data.uuid as string
      const other = (yield* call("POST", "/api/email-lists", { body: { name: unique("Other "), default_from_email: `o@${domain}` } }))
        .body.data.uuid as string
      const bob = (yield* call("POST", `/api/email-lists/${other}/subscribers`, { body: { email: `bob@${domain}` } })).body.data.uuid as string
      const template = (yield* call("POST", "/api/templates", {
        body: { name: unique("Layout "), html: "<html><body><h1>[[[title]]]</h1>[[[content:markdown]]]</body></html>" }
      })).body.data.uuid as string
      const content = {
        email_list_uuid: list,
        template_uuid: template,
        fields: { title: "News for {{ subscriber.first_name }}", content: "**Hi** {{ subscriber.first_name }} of {{ subscriber.extra_attributes.company }}\n\n[Read](https://example.com/a)" },
        subject: "Hello {{ subscriber.first_name }} from {{ list.name }}"
      }
      return { domain, list, listName, ada, bob, template, content }
    })

    it.effect("renders unsaved content for a subscriber, or sample values, and stores nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { ada, content, listName } = yield* fixture
        const before = (yield* call("GET", "/api/campaigns")).body.meta.total
        const r = yield* call("POST", "/api/campaigns/preview", { body: { ...content, subscriber_uuid: ada } })
        expectStatus(r, 200)
        expect(Object.keys(r.body.data).sort()).toEqual(["html", "subject"])
        expect(r.body.data.subject).toBe(`Hello Ada from ${listName}`)
        expect(r.body.data.html).toContain("<h1>News for Ada</h1>")
        expect(r.body.data.html).toContain("<strong>Hi</strong> Ada of ACME")
        expect(r.body.data.html).toContain(`${APP_URL}/t/c/`) // the link, click-tracked as in a send
        expect(r.body.data.html).toContain(`${APP_URL}/t/o/`) // the open pixel
        const sample = yield* call("POST", "/api/campaigns/preview", { body: content })
        expectStatus(sample, 200)
        expect(sample.body.data.subject).toBe(`Hello Jane from ${listName}`)
        expect(sample.body.data.html).toContain("<strong>Hi</strong> Jane of ")
        const bare = yield* call("POST", "/api/campaigns/preview", { body: { html: "<p>{{ subscriber.email }}</p>", track_opens: false } })
        expectStatus(bare, 200)
        expect(bare.body.data).toEqual({ subject: "Preview", html: "<p>jane.doe@example.com</p>" })
        expectStatus(yield* call("POST", "/api/campaigns/preview", { body: {} }), 200)
        expect((yield* call("GET", "/api/campaigns")).body.meta.total).toBe(before)
      }))

    it.effect("renders exactly what a send of the same campaign delivers, but for Mailroom's link ids", () =>
      Effect.gen(function*() {
        const { call, deliver, mails } = yield* TestServer
        const { ada, content, domain } = yield* fixture
        const campaign = (yield* call("POST", "/api/campaigns", { body: { name: unique("Same "), ...content } })).body.data.uuid
        const preview = yield* call("POST", "/api/campaigns/preview", { body: { ...content, subscriber_uuid: ada } })
        const saved = yield* call("GET", `/api/campaigns/${campaign}/preview?subscriber_uuid=${ada}`)
        expectStatus(saved, 200)
        expectStatus(yield* call("POST", `/api/campaigns/${campaign}/send`), 204)
        yield* deliver
        const sent = (yield* mails).find((m) => m.to.email === `ada@${domain}`)!
        expect(saved.body.data.subject).toBe(sent.subject)
        expect(withoutLinkIds(saved.body.data.html)).toBe(withoutLinkIds(sent.html))
        expect(withoutLinkIds(preview.body.data.html)).toBe(withoutLinkIds(sent.html))
        const neutral = yield* call("GET", `/api/campaigns/${campaign}/preview`)
        expect(neutral.body.data.subject).toContain("Hello Jane")
      }))

    it.effect("answers 422 at the field for unknown references and invalid Liquid, 404 for an unknown campaign", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { bob, content, list } = yield* fixture
        const unknown = crypto.randomUUID()
        const preview = (body: object) => call("POST", "/api/campaigns/preview", { body })
        expectValidation(yield* preview({ html: "<p>{% if %}</p>" }), ["html"])
        expectValidation(yield* preview({ html: "<p>{{ x </p>", subject: "{% for %}" }), ["html", "subject"])
        expectValidation(yield* preview({ ...content, template_uuid: unknown }), ["template_uuid"])
        expectValidation(yield* preview({ ...content, email_list_uuid: "nope" }), ["email_list_uuid"])
        expectValidation(yield* preview({ ...content, subscriber_uuid: unknown }), ["subscriber_uuid"])
        expectValidation(yield* preview({ email_list_uuid: list, subscriber_uuid: bob }), ["subscriber_uuid"])
        expectValidation(yield* preview({ html: 3, fields: "x" }), ["html", "fields"])
        expectValidation(yield* preview({ html: "<p/>", schedule_at: "2026-01-01 00:00:00" }), ["schedule_at"])
        expectMessageOnly(yield* call("GET", `/api/campaigns/${unknown}/preview`), 404)
        const campaign = (yield* call("POST", "/api/campaigns", { body: { name: unique("C "), ...content } })).body.data.uuid
        expectValidation(yield* call("GET", `/api/campaigns/${campaign}/preview?subscriber_uuid=${bob}`), ["subscriber_uuid"])
      }))

    it.effect("previewing unsaved content needs write; a saved campaign's preview needs read", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const { content } = yield* fixture
        const campaign = (yield* call("POST", "/api/campaigns", { body: { name: unique("C "), ...content } })).body.data.uuid
        const read = yield* tokenWith(["read"])
        const send = yield* tokenWith(["send"])
        expectMessageOnly(yield* call("POST", "/api/campaigns/preview", { token: read, body: content }), 403)
        expectMessageOnly(yield* call("POST", "/api/campaigns/preview", { token: send, body: content }), 403)
        expectStatus(yield* call("POST", "/api/campaigns/preview", { token: yield* tokenWith(["write"]), body: content }), 200)
        expectStatus(yield* call("GET", `/api/campaigns/${campaign}/preview`, { token: read }), 200)
        expectMessageOnly(yield* call("GET", `/api/campaigns/${campaign}/preview`, { token: send }), 403)
      }))
  })
})
