import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const HTML = "<html><body><p>Hi {{ subscriber.first_name }}!</p><a href=\"https://example.com/news\">Read</a> " +
  "<a href=\"::unsubscribeUrl::\">Unsubscribe</a></body></html>"
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

describe.each(stores)("campaign send and delivery on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /**
     * A list requiring confirmation: ada (tag vip) and bob subscribed, carl unsubscribed, dora unconfirmed, eve
     * subscribed but suppressed. Every address is on a domain of its own, so mails can be told apart.
     */
    const audience = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("d")}.example`
      const from = `news@${domain}`
      const list = yield* call("POST", "/api/email-lists", {
        body: { name: unique("Send "), default_from_email: from, default_from_name: "News Team", requires_confirmation: true }
      })
      expectStatus(list, 201)
      const uuid = list.body.data.uuid as string
      const people: Record<string, string> = {}
      const add = (local: string, body: Record<string, unknown>) =>
        Effect.gen(function*() {
          const r = yield* call("POST", `/api/email-lists/${uuid}/subscribers`, { body: { email: `${local}@${domain}`, ...body } })
          expectStatus(r, 201)
          people[local] = r.body.data.uuid
        })
      yield* add("ada", { first_name: "Ada", tags: ["vip"], skip_confirmation: true })
      yield* add("bob", { first_name: "Bob", skip_confirmation: true })
      yield* add("carl", { first_name: "Carl", tags: ["vip"], skip_confirmation: true })
      yield* add("dora", { first_name: "Dora", tags: ["vip"] })
      yield* add("eve", { first_name: "Eve", tags: ["vip"], skip_confirmation: true })
      expectStatus(yield* call("POST", `/api/subscribers/${people["carl"]}/unsubscribe`), 204)
      expectStatus(yield* call("POST", "/api/suppressions", { body: { email: `eve@${domain}` } }), 201)
      return { list: uuid, domain, from, people }
    })
    const campaign = (list: string, body: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/campaigns", { body: { name: unique("Camp "), email_list_uuid: list, html: HTML, ...body } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const send = (uuid: string) => Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/campaigns/${uuid}/send`))
    const read = (uuid: string) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/campaigns/${uuid}`)
        expectStatus(r, 200)
        return r.body.data
      })
    /** Mails caught for addresses on `domain`, by local part. */
    const mailsOn = (domain: string) =>
      Effect.map(Effect.flatMap(TestServer, ({ mails }) => mails), (all) =>
        all.filter((m) => m.to.email.endsWith(`@${domain}`)))
    const locals = (mails: ReadonlyArray<{ readonly to: { readonly email: string } }>) =>
      mails.map((m) => m.to.email.split("@")[0]).sort()

    it.effect("send answers 204 and sets sending; delivery mails each subscribed, unsuppressed member once, then sent", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, from, list } = yield* audience
        const uuid = yield* campaign(list, { subject: "News for {{ subscriber.first_name }}" })
        const r = yield* send(uuid)
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expect((yield* read(uuid)).status).toBe("sending")
        expect(yield* mailsOn(domain)).toEqual([])
        yield* deliver
        const c = yield* read(uuid)
        expect(c).toMatchObject({ status: "sent", sent_to_number_of_subscribers: "2", from_email: from, from_name: "News Team" })
        expect(c.sent_at).toMatch(TIMESTAMP)
        const mails = yield* mailsOn(domain)
        expect(locals(mails)).toEqual(["ada", "bob"])
        const ada = mails.find((m) => m.to.email === `ada@${domain}`)!
        expect(ada.from.email).toBe(from)
        expect(ada.subject).toBe("News for Ada")
        expect(mails.find((m) => m.to.email === `bob@${domain}`)!.subject).toBe("News for Bob")
        expect(ada.html).toContain("Hi Ada!")
        expect(ada.html).not.toContain("::unsubscribeUrl::")
        expect(ada.html).toMatch(new RegExp(`href="${escape(APP_URL)}/u/[^"]+"`))
        expect(ada.html).toMatch(new RegExp(`<img [^>]*src="${escape(APP_URL)}/t/o/[^"]+"`))
        expect(ada.html).toMatch(new RegExp(`href="${escape(APP_URL)}/t/c/[^"]+"[^>]*>Read</a>`))
        expect(ada.html).not.toContain("href=\"https://example.com/news")
        expect(ada.headers?.["List-Unsubscribe"]).toMatch(new RegExp(`^<${escape(APP_URL)}/u/[^>]+>$`))
        expect(ada.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click")
        const bob = mails.find((m) => m.to.email === `bob@${domain}`)!
        expect(bob.headers?.["List-Unsubscribe"]).not.toBe(ada.headers?.["List-Unsubscribe"])
        // a second delivery pass mails nobody again
        yield* deliver
        expect((yield* mailsOn(domain)).length).toBe(2)
      }))

    it.effect("the campaign's own sender wins over the list's; subscriber values are HTML-escaped in the body", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list, people } = yield* audience
        const put = yield* call("PUT", `/api/subscribers/${people["bob"]}`, {
          body: { email: `bob@${domain}`, first_name: "<b>Bob</b> & co" }
        })
        expectStatus(put, 200)
        const uuid = yield* campaign(list, { from_email: `boss@${domain}`, from_name: "The Boss", subject: "To {{ subscriber.email }}" })
        expectStatus(yield* send(uuid), 204)
        yield* deliver
        expect(yield* read(uuid)).toMatchObject({ from_email: `boss@${domain}`, from_name: "The Boss" })
        const bob = (yield* mailsOn(domain)).find((m) => m.to.email === `bob@${domain}`)!
        expect(bob.from).toMatchObject({ email: `boss@${domain}`, name: "The Boss" })
        expect(bob.subject).toBe(`To bob@${domain}`)
        expect(bob.html).toContain("Hi &lt;b&gt;Bob&lt;/b&gt; &amp; co!")
        expect(bob.html).not.toContain("<b>Bob</b>")
      }))

    it.effect("sending again answers 400 {message} naming the campaign, while sending and once sent", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const uuid = yield* campaign(list)
        expectStatus(yield* send(uuid), 204)
        const during = yield* send(uuid)
        expectMessageOnly(during, 400)
        expect(during.body.message).toContain(uuid)
        yield* deliver
        const after = yield* send(uuid)
        expectMessageOnly(after, 400)
        expect(after.body.message).toContain(uuid)
        expect(after.body.message).toMatch(/already (been )?sent/)
        yield* deliver
        expect((yield* read(uuid)).status).toBe("sent")
        expect(locals(yield* mailsOn(domain))).toEqual(["ada", "bob"])
      }))

    it.effect("a campaign without content answers 400 '… because it has no content.' and stays a draft", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list } = yield* audience
        for (const html of [null, "   "]) {
          const uuid = yield* campaign(list, { html })
          const r = yield* send(uuid)
          expectMessageOnly(r, 400)
          expect(r.body.message).toMatch(/because it has no content\.$/)
          expect((yield* read(uuid)).status).toBe("draft")
        }
        const plain = yield* call("POST", "/api/campaigns", { body: { name: "no html", email_list_uuid: list } })
        expectStatus(plain, 201)
        expectMessageOnly(yield* send(plain.body.data.uuid), 400)
        yield* deliver
        expect(yield* mailsOn(domain)).toEqual([])
      }))

    it.effect("POST send of an unknown campaign answers 404", () =>
      Effect.gen(function*() {
        expectMessageOnly(yield* send("00000000-0000-4000-8000-000000000000"), 404)
        expectMessageOnly(yield* send("nope"), 404)
      }))

    it.effect("with a segment, only its subscribed members get the mail", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const seg = yield* call("POST", `/api/email-lists/${list}/segments`, { body: { name: "VIPs", positive_tags: ["vip"] } })
        expectStatus(seg, 201)
        const uuid = yield* campaign(list, { segment_uuid: seg.body.data.uuid })
        expectStatus(yield* send(uuid), 204)
        yield* deliver
        expect(yield* read(uuid)).toMatchObject({ status: "sent", sent_to_number_of_subscribers: "1", segment_description: "VIPs" })
        expect(locals(yield* mailsOn(domain))).toEqual(["ada"])
      }))

    it.effect("a segment deleted after send and before delivery never widens the audience to the whole list", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const seg = yield* call("POST", `/api/email-lists/${list}/segments`, { body: { name: "Few", positive_tags: ["vip"] } })
        expectStatus(seg, 201)
        const uuid = yield* campaign(list, { segment_uuid: seg.body.data.uuid })
        expectStatus(yield* send(uuid), 204)
        expectStatus(yield* call("DELETE", `/api/email-lists/${list}/segments/${seg.body.data.uuid}`), 204)
        yield* deliver
        expect(locals(yield* mailsOn(domain))).not.toContain("bob")
      }))

    it.effect("an empty list is sent at once with 0 recipients", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Empty "), default_from_email: "e@example.com" } })
        expectStatus(list, 201)
        const uuid = yield* campaign(list.body.data.uuid)
        expectStatus(yield* send(uuid), 204)
        yield* deliver
        const c = yield* read(uuid)
        expect(c).toMatchObject({ status: "sent", sent_to_number_of_subscribers: "0" })
        expect(c.sent_at).toMatch(TIMESTAMP)
      }))

    it.effect("a campaign scheduled in the past is started and completed by delivery", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const uuid = yield* campaign(list, { schedule_at: "2001-02-03 04:05:06" })
        expect((yield* read(uuid)).status).toBe("scheduled")
        yield* deliver
        const c = yield* read(uuid)
        expect(c).toMatchObject({ status: "sent", sent_to_number_of_subscribers: "2" })
        expect(locals(yield* mailsOn(domain))).toEqual(["ada", "bob"])
      }))

    it.effect("a campaign scheduled far ahead stays scheduled; POST send sends it at once", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const uuid = yield* campaign(list, { schedule_at: "2099-12-31 23:59:59" })
        yield* deliver
        expect(yield* read(uuid)).toMatchObject({ status: "scheduled", scheduled_at: "2099-12-31T23:59:59.000000Z" })
        expect(yield* mailsOn(domain)).toEqual([])
        expectStatus(yield* send(uuid), 204)
        expect((yield* read(uuid)).status).toBe("sending")
        yield* deliver
        expect((yield* read(uuid)).status).toBe("sent")
        expect(locals(yield* mailsOn(domain))).toEqual(["ada", "bob"])
      }))
  })
})
