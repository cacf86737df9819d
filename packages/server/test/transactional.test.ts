/**
 * Transactional mails through the API: templates with statistics, send (by name or uuid, inline, replacements,
 * recipients, attachments, store, fake, mailer), 422 by field, 406 naming every suppressed address, the log, resend,
 * the dry-run render, tracking of opens and clicks, permanent refusals, and the `send` ability.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MemoryMailbox } from "@mailroom/core/testing"
import { Effect, Option } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, query, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const get = (url: string) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((r) => ({ status: r.status, headers: r.headers })))
const PNG = Buffer.from("89504e470d0a1a0a", "hex").toString("base64")

describe.each(stores)("transactional mails on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const template = (body: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/transactional-mails/templates", {
          body: { name: unique("Reset "), subject: "Reset for {{ name }}", html: "<html><body><p>Hi {{ name }}, <a href=\"https://example.com/reset?t={{ token }}\">reset</a></p></body></html>", ...body }
        })
        expectStatus(r, 201)
        return r.body.data
      })
    const sentTo = (email: string) => Effect.map(TestServer, ({ mails }) => mails).pipe(
      Effect.flatten,
      Effect.map((all) => all.filter((m) => m.to.email === email))
    )
    const local = (url: string) => Effect.map(TestServer, ({ url: origin }) => url.replace(APP_URL, origin))

    it.effect("templates: create with defaults and zero statistics, unique names ignoring case, update, list, delete", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = yield* template({ name: unique("Welcome "), to: ["Ops <ops@example.com>"] })
        expect(created).toMatchObject({
          subject: "Reset for {{ name }}", text: null, type: "html", to: ["Ops <ops@example.com>"], cc: null, bcc: null,
          store_mail: true, track_opens: true, track_clicks: true,
          sent_count: 0, open_count: 0, unique_open_count: 0, click_count: 0, unique_click_count: 0, bounce_count: 0
        })
        expect(created.created_at).toMatch(TIMESTAMP)
        expectValidation(yield* call("POST", "/api/transactional-mails/templates", { body: { name: created.name.toUpperCase() } }), ["name"])
        expectValidation(yield* call("POST", "/api/transactional-mails/templates", { body: { subject: "x" } }), ["name"])
        expectValidation(yield* call("POST", "/api/transactional-mails/templates", { body: { name: unique("t"), html: "{% if %}", subject: "{{" } }), ["html", "subject"])
        expectValidation(yield* call("POST", "/api/transactional-mails/templates", { body: { name: unique("t"), to: ["nope"], type: "pdf" } }), ["to", "type"])
        const updated = yield* call("PUT", `/api/transactional-mails/templates/${created.uuid}`, { body: { name: created.name, subject: "New", type: "markdown" } })
        expectStatus(updated, 200)
        expect(updated.body.data).toMatchObject({ subject: "New", html: "", type: "markdown", to: null })
        const listed = yield* call("GET", `/api/transactional-mails/templates?${query({ "filter[name]": created.name, sort: "subject" })}`)
        expect(listed.body.data.map((t: any) => t.uuid)).toEqual([created.uuid])
        expect((yield* call("GET", `/api/transactional-mails/templates?${query({ "filter[search]": "new" })}`)).body.data.some((t: any) => t.uuid === created.uuid)).toBe(true)
        expectMessageOnly(yield* call("GET", "/api/transactional-mails/templates?filter[body]=x"), 400)
        expectStatus(yield* call("DELETE", `/api/transactional-mails/templates/${created.uuid}`), 204)
        expectMessageOnly(yield* call("GET", `/api/transactional-mails/templates/${created.uuid}`), 404)
      }))

    it.effect("a send by template name: replacements, subject override, every recipient, logged and delivered once", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const t = yield* template({ bcc: ["audit@example.com"] })
        const to = `${unique("jane")}@example.com`
        const r = yield* call("POST", "/api/transactional-mails/send", {
          body: {
            mail_name: t.name, from: "Shop <shop@example.com>", to: `"Doe, Jane" <${to}>, second@example.com`,
            cc: "cc@example.com", bcc: "", reply_to: "Help <help@example.com>", replacements: { name: "Jane & Co", token: "abc" },
            subject: "Your reset, {{ name }}"
          }
        })
        expectStatus(r, 200)
        expect(Object.keys(r.body)).toEqual(["uuid"])
        const pending = (yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data
        expect(pending).toMatchObject({ status: "pending", mail_name: t.name, subject: "Your reset, Jane & Co", fake: false })
        expect(pending.to).toEqual([{ email: to, name: "Doe, Jane" }, { email: "second@example.com", name: null }])
        expect(pending.from).toEqual([{ email: "shop@example.com", name: "Shop" }])
        expect(pending.bcc).toEqual([{ email: "audit@example.com", name: null }])
        expect(pending.html).toContain("Hi Jane &amp; Co")
        yield* deliverTransactional
        const [mail, ...more] = yield* sentTo(to)
        expect(more).toEqual([])
        expect(mail!.subject).toBe("Your reset, Jane & Co")
        expect(mail!.from).toEqual({ email: "shop@example.com", name: "Shop" })
        expect(mail!.moreTo).toEqual([{ email: "second@example.com", name: null }])
        expect(mail!.cc).toEqual([{ email: "cc@example.com", name: null }])
        expect(mail!.bcc).toEqual([{ email: "audit@example.com", name: null }])
        expect(mail!.replyTo).toEqual({ email: "help@example.com", name: "Help" })
        const logged = (yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data
        expect(logged).toMatchObject({ status: "sent", failure_reason: null, opens: 0, clicks: 0 })
        expect(mail!.headers?.["X-Mailroom-Send"]).toBe(logged.send_uuid)
        const sends = (yield* call("GET", `/api/sends?filter[transactional_mail_log_item_uuid]=${r.body.uuid}`)).body.data
        expect(sends).toHaveLength(1)
        expect(sends[0]).toMatchObject({ uuid: logged.send_uuid, transactional_mail_log_item_uuid: r.body.uuid, campaign_uuid: null, subscriber_email: to })
        expect(sends[0].sent_at).toMatch(TIMESTAMP)
        const byMessageId = yield* call("GET", `/api/transactional-mails?${query({ "filter[transport_message_id]": logged.transport_message_id })}`)
        expect(byMessageId.body.data.map((m: any) => m.uuid)).toEqual([r.body.uuid])
        const byUuid = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: t.uuid, from: "shop@example.com", to, replacements: { name: "J" } } })
        expectStatus(byUuid, 200)
        expect((yield* call("GET", `/api/transactional-mails/${byUuid.body.uuid}`)).body.data.subject).toBe("Reset for J")
      }))

    it.effect("inline content, the dry-run render, and 422 for every bad field at once", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const before = (yield* call("GET", "/api/transactional-mails")).body.meta.total
        const rendered = yield* call("POST", "/api/transactional-mails/render", {
          body: { from: "a@example.com", to: "b@example.com", subject: "Order ::number::", html: "<p>Order <b>{{ number }}</b> of {{ items | size }} items</p>", replacements: { number: 42, items: [1, 2] } }
        })
        expectStatus(rendered, 200)
        expect(rendered.body.data).toEqual({ subject: "Order 42", html: "<p>Order <b>42</b> of 2 items</p>", text: expect.stringContaining("Order 42 of 2 items") })
        expect((yield* call("GET", "/api/transactional-mails")).body.meta.total).toBe(before)
        const bad = yield* call("POST", "/api/transactional-mails/send", {
          body: { from: "not an address", to: "x@gmail", cc: "fine@example.com, broken@", mail_name: "no such template", mailer: "nope", attachments: [{ name: "a.txt", content: "***" }] }
        })
        expectValidation(bad, ["from", "to", "cc", "mail_name", "mailer", "attachments.0.content"])
        expectValidation(yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to: "b@example.com" } }), ["subject", "html"])
        expectValidation(yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to: "b@example.com", subject: "x", html: "{% for %}" } }), ["html"])
        expectValidation(yield* call("POST", "/api/transactional-mails/send", { body: { to: "b@example.com", subject: "x", html: "y", store: "maybe" } }), ["from", "store"])
        expectValidation(yield* call("POST", "/api/transactional-mails/send", {
          body: { from: "a@example.com", to: "b@example.com", subject: "x", html: "y", attachments: [{ name: "a.eml", content: "eA==", content_type: "message/rfc822" }] }
        }), ["attachments.0.content_type"])
        const markdown = yield* template({ type: "markdown", html: "# Hello {{ name }}\n\nYour code is **{{ code }}**." })
        const md = yield* call("POST", "/api/transactional-mails/render", {
          body: { mail_name: markdown.uuid, from: "a@example.com", to: "b@example.com", replacements: { name: "<Ann>", code: 42 } }
        })
        expectStatus(md, 200)
        expect(md.body.data.html).toContain("Hello &lt;Ann&gt;</h1>")
        expect(md.body.data.html).toContain("<strong>42</strong>")
        const planted = yield* call("POST", "/api/transactional-mails/render", {
          body: { mail_name: markdown.uuid, from: "a@example.com", to: "b@example.com", replacements: { name: "[Verify](https://evil.example/x) ![p](https://evil.example/p.png) *now*", code: 1 } }
        })
        expect(planted.body.data.html).not.toMatch(/<a |<img |<em>/)
        expect(planted.body.data.html).toContain("[Verify](https://evil.example/x)")
        const textOnly = yield* call("POST", "/api/transactional-mails/render", {
          body: { from: "a@example.com", to: "b@example.com", subject: "Plain", text: "Line one\nLine <two> & more" }
        })
        expect(textOnly.body.data).toEqual({
          subject: "Plain",
          html: "<div style=\"white-space:pre-wrap\">Line one\nLine &lt;two&gt; &amp; more</div>",
          text: "Line one\nLine <two> & more"
        })
        expect((yield* call("GET", "/api/transactional-mails")).body.meta.total).toBe(before)
      }))

    it.effect("a suppressed recipient anywhere answers 406 naming every one, and nothing is stored or sent", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const [a, b] = [`${unique("sup")}@example.com`, `${unique("sup")}@example.com`]
        for (const email of [a, b]) expectStatus(yield* call("POST", "/api/suppressions", { body: { email, reason: "manual" } }), 201)
        const before = (yield* call("GET", "/api/transactional-mails")).body.meta.total
        const r = yield* call("POST", "/api/transactional-mails/send", {
          body: { from: "a@example.com", to: "ok@example.com", cc: a.toUpperCase(), bcc: b, subject: "x", html: "<p>y</p>" }
        })
        expect(r.status).toBe(406)
        expect(Object.keys(r.body).sort()).toEqual(["message", "suppressed"])
        expect(r.body.suppressed).toEqual([a, b])
        expect((yield* call("GET", "/api/transactional-mails")).body.meta.total).toBe(before)
        yield* deliverTransactional
        expect(yield* sentTo("ok@example.com")).toEqual([])
        const fake = yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to: a, subject: "x", html: "y", fake: true } })
        expectStatus(fake, 200)
        expect((yield* call("GET", `/api/transactional-mails/${fake.body.uuid}`)).body.data).toMatchObject({ fake: true, status: "sent", send_uuid: null })
        yield* deliverTransactional
        expect(yield* sentTo(a)).toEqual([])
      }))

    it.effect("store: false answers 204, delivers, and keeps nothing in the log", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const to = `${unique("nostore")}@example.com`
        const r = yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to, subject: "Secret", html: "<p>code 123</p>", store: false } })
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expect((yield* call("GET", `/api/sends?per_page=100`)).body.data.some((s: any) => s.subscriber_email === to)).toBe(false)
        yield* deliverTransactional
        expect((yield* sentTo(to)).map((m) => m.subject)).toEqual(["Secret"])
        const log = yield* call("GET", `/api/transactional-mails?${query({ "filter[search]": to })}`)
        expect(log.body.data).toEqual([])
        expect((yield* call("GET", `/api/sends?per_page=100`)).body.data.some((s: any) => s.subscriber_email === to)).toBe(false)
      }))

    it.effect("opens and clicks are tracked when the template says so, on the log item, its send and the template", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const t = yield* template()
        const to = `${unique("track")}@example.com`
        const r = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: t.name, from: "a@example.com", to, replacements: { name: "T", token: "xyz" } } })
        yield* deliverTransactional
        const [mail] = yield* sentTo(to)
        const pixel = /src="([^"]+\/t\/o\/[^"]+)"/.exec(mail!.html)![1]!
        const click = /href="([^"]+\/t\/c\/[^"]+)"/.exec(mail!.html)![1]!
        expect(mail!.html).not.toContain("https://example.com/reset")
        expect((yield* get(yield* local(pixel))).status).toBe(200)
        const redirect = yield* get(yield* local(click.replace(/&amp;/g, "&")))
        expect(redirect.status).toBe(302)
        expect(redirect.headers.get("location")).toBe("https://example.com/reset?t=xyz")
        yield* get(yield* local(click.replace(/&amp;/g, "&")))
        expect((yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data).toMatchObject({ opens: 1, clicks: 2 })
        const stats = (yield* call("GET", `/api/transactional-mails/templates/${t.uuid}`)).body.data
        expect(stats).toMatchObject({ sent_count: 1, open_count: 1, unique_open_count: 1, click_count: 2, unique_click_count: 1, bounce_count: 0 })
        const tampered = click.replace(/\/t\/c\/([^/]+)\/(\d+)\./, "/t/c/$1/9.")
        expect((yield* get(yield* local(tampered))).status).toBe(404)
        const untracked = yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to: `u${to}`, subject: "x", html: "<a href=\"https://example.com/\">x</a>" } })
        expectStatus(untracked, 200)
        yield* deliverTransactional
        const [plain] = yield* sentTo(`u${to}`)
        expect(plain!.html).toBe("<a href=\"https://example.com/\">x</a>")
      }))

    it.effect("attachments (inline and not) are sent and sent again by resend; resend re-checks suppressions", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const to = `${unique("files")}@example.com`
        const attachments = [
          { name: "logo.png", content: PNG, content_type: "image/png", content_id: "logo" },
          { name: "Rechnung März.pdf", content: Buffer.from("%PDF-1.4").toString("base64"), content_type: "application/pdf" }
        ]
        const r = yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to, subject: "Invoice", html: "<img src=\"cid:logo\">", attachments } })
        expectStatus(r, 200)
        expect((yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data.attachments).toEqual(["logo.png", "Rechnung März.pdf"])
        yield* deliverTransactional
        expectStatus(yield* call("POST", `/api/transactional-mails/${r.body.uuid}/resend`), 204)
        yield* deliverTransactional
        const mails = yield* sentTo(to)
        expect(mails).toHaveLength(2)
        for (const mail of mails) {
          expect(mail.attachments).toEqual([
            { name: "logo.png", content: PNG, contentType: "image/png", contentId: "logo" },
            { name: "Rechnung März.pdf", content: attachments[1]!.content, contentType: "application/pdf", contentId: null }
          ])
        }
        expect(mails[0]!.headers?.["X-Mailroom-Send"]).not.toBe(mails[1]!.headers?.["X-Mailroom-Send"])
        const sends = (yield* call("GET", `/api/sends?filter[transactional_mail_log_item_uuid]=${r.body.uuid}`)).body.data
        expect(sends).toHaveLength(2)
        expectStatus(yield* call("POST", "/api/suppressions", { body: { email: to, reason: "manual" } }), 201)
        const refused = yield* call("POST", `/api/transactional-mails/${r.body.uuid}/resend`)
        expect(refused.status).toBe(406)
        expect(refused.body.suppressed).toEqual([to])
        expectMessageOnly(yield* call("POST", "/api/transactional-mails/00000000-0000-4000-8000-000000000000/resend"), 404)
        expectMessageOnly(yield* call("GET", "/api/transactional-mails/not-a-uuid"), 404)
      }))

    it.effect("a permanent refusal fails the mail with its reason, counts a bounce and suppresses the address", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const mailbox = yield* Effect.map(Effect.serviceOption(MemoryMailbox), Option.getOrThrowWith(() => new Error("no MemoryMailbox")))
        const t = yield* template()
        const to = `${unique("bounce")}@example.com`
        const r = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: t.name, from: "a@example.com", to } })
        yield* mailbox.failNext(1, true)
        yield* deliverTransactional
        const logged = (yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data
        expect(logged.status).toBe("failed")
        expect(logged.failure_reason).toContain("550")
        expect((yield* call("GET", `/api/transactional-mails/templates/${t.uuid}`)).body.data).toMatchObject({ sent_count: 0, bounce_count: 1 })
        const again = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: t.name, from: "a@example.com", to } })
        expect(again.status).toBe(406)
        const later = `${unique("later")}@example.com`
        const queued = yield* call("POST", "/api/transactional-mails/send", { body: { from: "a@example.com", to: "ok@example.com", bcc: later, subject: "x", html: "y" } })
        expectStatus(yield* call("POST", "/api/suppressions", { body: { email: later, reason: "manual" } }), 201)
        yield* deliverTransactional
        const blocked = (yield* call("GET", `/api/transactional-mails/${queued.body.uuid}`)).body.data
        expect(blocked.status).toBe("failed")
        expect(blocked.failure_reason).toContain(later)
      }))

    it.effect("provider feedback on a transactional send goes through the bounce policy and counts once per send", () =>
      Effect.gen(function*() {
        const { call, deliverTransactional } = yield* TestServer
        const t = yield* template()
        const to = `${unique("complains")}@example.com`
        const r = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: t.name, from: "a@example.com", to } })
        yield* deliverTransactional
        const sendUuid = (yield* call("GET", `/api/transactional-mails/${r.body.uuid}`)).body.data.send_uuid
        for (const type of ["complaint", "bounce"]) {
          expectStatus(yield* call("POST", "/api/feedback", { body: { type, email: to, send_uuid: `<${sendUuid}>` } }), 204)
        }
        expect((yield* call("GET", `/api/transactional-mails/templates/${t.uuid}`)).body.data).toMatchObject({ sent_count: 1, bounce_count: 1 })
        const suppressed = (yield* call("GET", `/api/suppressions?${query({ "filter[search]": to })}`)).body.data
        expect(suppressed.map((s: any) => [s.email, s.reason])).toEqual([[to, "spam_complaint"]])
      }))

    it.effect("a token with only the send ability may send and do nothing else here", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["send"])
        const body = { from: "a@example.com", to: "b@example.com", subject: "x", html: "y" }
        expectStatus(yield* call("POST", "/api/transactional-mails/send", { body, token }), 200)
        for (const [method, path] of [["GET", "/api/transactional-mails"], ["POST", "/api/transactional-mails/render"], ["GET", "/api/transactional-mails/templates"], ["POST", "/api/transactional-mails/templates"]] as const) {
          expectMessageOnly(yield* call(method, path, method === "GET" ? { token } : { body, token }), 403)
        }
        expectMessageOnly(yield* call("POST", "/api/transactional-mails/send", { body, token: yield* tokenWith(["read"]) }), 403)
      }))
  })
})
