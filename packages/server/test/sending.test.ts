/**
 * The sending core seen through the API: Liquid in campaigns, personalised tracked links, tracking switches, templates
 * refused when they do not parse, test mails that are real mails, the web view, and the send id on every mail.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, expectValidation, query, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const get = (url: string, init: RequestInit = {}) =>
  Effect.promise(() => fetch(url, { redirect: "manual", ...init }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() })))

describe.each(stores)("the sending core on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list with Ada (first name, plan gold) and Bob (no first name) on a fresh domain. */
    const audience = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("s")}.example`
      const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("Sending "), default_from_email: `n@${domain}` } })).body.data
      const people = [
        { email: `ada@${domain}`, first_name: "Ada", extra_attributes: { plan: "gold", visits: 7 } },
        { email: `bob@${domain}` }
      ]
      for (const body of people) expectStatus(yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body }), 201)
      return { list: list.uuid as string, domain }
    })
    /** Creates a campaign on the list with `body` and sends it; its uuid and each recipient's mail by local part. */
    const sendCampaign = (list: string, domain: string, body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call, deliver, mails } = yield* TestServer
        const c = yield* call("POST", "/api/campaigns", { body: { name: unique("Liquid "), email_list_uuid: list, ...body } })
        expectStatus(c, 201)
        expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send`), 204)
        yield* deliver
        const mail = (local: string) => Effect.map(mails, (all) => all.filter((m) => m.to.email === `${local}@${domain}`).at(-1)!)
        return { uuid: c.body.data.uuid as string, resource: c.body.data, ada: yield* mail("ada"), bob: yield* mail("bob") }
      })
    const local = (url: string) => Effect.map(TestServer, ({ url: origin }) => url.replace(APP_URL, origin))

    it.effect("campaigns speak Liquid: conditions, filters, extra attributes; unknown legacy fields are empty; the subject is raw", () =>
      Effect.gen(function*() {
        const { domain, list } = yield* audience
        const { ada, bob } = yield* sendCampaign(list, domain, {
          subject: "{{ subscriber.first_name | default: \"Friend\" }} & co",
          html: `<p>{% if subscriber.first_name != "" %}Dear {{ subscriber.first_name | upcase }}{% else %}Hello there{% endif %}, ` +
            `{{ subscriber.plan | default: "free" }} plan, {{ subscriber.extra_attributes.visits | plus: 1 }} visits ` +
            `[::subscriber.nickname::]</p>`
        })
        expect(ada.subject).toBe("Ada & co")
        expect(ada.html).toContain("<p>Dear ADA, gold plan, 8 visits []</p>")
        expect(bob.subject).toBe("Friend & co")
        expect(bob.html).toContain("<p>Hello there, free plan, 1 visits []</p>")
        expect(ada.text).toContain("Dear ADA, gold plan, 8 visits []")
        expect(ada.headers?.["X-Mailroom-Send"]).toMatch(/^[0-9a-f-]{36}$/)
      }))

    it.effect("a placeholder in a link is filled per subscriber, and the link is still tracked and grouped as written", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { domain, list } = yield* audience
        const written = "https://example.org/p?e={{ subscriber.email }}&n=::subscriber.first_name::"
        const { ada, bob, uuid } = yield* sendCampaign(list, domain, { html: `<p><a href="${written}">Your page</a></p>`, utm_tags: false })
        const clickOf = (html: string) => /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)![1]!
        const adaClick = yield* get(yield* local(clickOf(ada.html)))
        expect(adaClick.status).toBe(302)
        expect(adaClick.headers.get("location")).toBe(`https://example.org/p?e=ada@${domain}&n=Ada`)
        const bobClick = yield* get(yield* local(clickOf(bob.html)))
        expect(bobClick.headers.get("location")).toBe(`https://example.org/p?e=bob@${domain}&n=`)
        const clicks = (yield* call("GET", `/api/campaigns/${uuid}/clicks`)).body.data
        expect(clicks).toEqual([{ url: "https://example.org/p?e={{ subscriber.email }}&n={{ subscriber.first_name }}", unique_click_count: 2, click_count: 2 }])
      }))

    it.effect("track_opens and track_clicks (on by default) switch off the pixel and the click redirects", () =>
      Effect.gen(function*() {
        const { domain, list } = yield* audience
        const html = `<html><body><a href="https://example.com/x?u={{ subscriber.first_name }}">x</a></body></html>`
        const tracked = yield* sendCampaign(list, domain, { html })
        expect(tracked.resource).toMatchObject({ track_opens: true, track_clicks: true })
        expect(tracked.ada.html).toContain("/t/o/")
        expect(tracked.ada.html).toContain("/t/c/")
        const quiet = yield* sendCampaign(list, domain, { html, track_opens: false, track_clicks: false, utm_tags: false })
        expect(quiet.resource).toMatchObject({ track_opens: false, track_clicks: false })
        expect(quiet.ada.html).not.toContain("/t/o/")
        expect(quiet.ada.html).toContain(`<a href="https://example.com/x?u=Ada">x</a>`)
        expect(quiet.ada.headers?.["List-Unsubscribe"]).toMatch(/\/u\//)
      }))

    it.effect("a template or campaign that does not parse is refused with 422 naming the field; nothing is stored", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* audience
        const badTemplate = yield* call("POST", "/api/templates", { body: { name: unique("Bad "), html: "<p>{% if x %}never closed</p>" } })
        expectValidation(badTemplate, ["html"])
        expect(badTemplate.body.errors.html[0]).toMatch(/does not parse: tag \{% if x %\} not closed/)
        const good = yield* call("POST", "/api/templates", { body: { name: unique("Good "), html: "<p>[[[content]]]</p>" } })
        expectStatus(good, 201)
        expectValidation(yield* call("PUT", `/api/templates/${good.body.data.uuid}`, { body: { name: "x", html: "{{ x | nope }}" } }), ["html"])
        const badCampaign = yield* call("POST", "/api/campaigns", {
          body: { name: unique("Bad "), email_list_uuid: list, subject: "Hi {{ subscriber.first_name", html: "{% include 'x' %}" }
        })
        expectValidation(badCampaign, ["html", "subject"])
        const names = (yield* call("GET", `/api/campaigns?${query({ "filter[search]": "Bad " })}`)).body.data
        expect(names.filter((c: { email_list_uuid: string }) => c.email_list_uuid === list)).toEqual([])
      }))

    it.effect("test mails are real mails: the campaign's headers and links, sample values, and a harmless unsubscribe page", () =>
      Effect.gen(function*() {
        const { call, mails, runJobs } = yield* TestServer
        const { domain, list } = yield* audience
        const c = yield* call("POST", "/api/campaigns", {
          body: { name: unique("T "), email_list_uuid: list, subject: "For {{ subscriber.first_name }}", html: `<p>Hi {{ subscriber.first_name }}</p><a href="https://example.com/t">t</a><a href="::unsubscribeUrl::">out</a>` }
        })
        expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send-test`, { body: { email: `ada@${domain},guest@${domain}` } }), 204)
        yield* runJobs
        const ada = (yield* mails).find((m) => m.to.email === `ada@${domain}`)!
        const guest = (yield* mails).find((m) => m.to.email === `guest@${domain}`)!
        expect(ada.subject).toBe("[Test] For Ada")
        expect(guest.subject).toBe("[Test] For Jane")
        for (const mail of [ada, guest]) {
          expect(mail.headers).toMatchObject({ "X-Mailroom-Test": "true", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" })
          expect(mail.html).toMatch(/href="http:\/\/mailroom\.test\/t\/c\/[^"]+"/)
        }
        const unsubscribe = /<(http[^>]+)>/.exec(ada.headers!["List-Unsubscribe"]!)![1]!
        for (const method of ["GET", "POST"]) {
          const page = yield* get(yield* local(unsubscribe), { method })
          expect(page.status).toBe(200)
          expect(page.text).toContain("This is a test mail")
        }
        const click = yield* get(yield* local(/href="(http:\/\/mailroom\.test\/t\/c\/[^"]+)"/.exec(ada.html)![1]!))
        expect(click.status).toBe(302)
        const subscribers = (yield* call("GET", `/api/email-lists/${list}/subscribers?${query({ "filter[email]": `ada@${domain}` })}`)).body.data
        expect(subscribers[0].unsubscribed_at).toBeNull()
        expect((yield* call("GET", `/api/campaigns/${c.body.data.uuid}`)).body.data).toMatchObject({ click_count: "0", status: "draft" })
      }))

    it.effect("the web view is a whole page: personal through the mail's own link, neutral otherwise", () =>
      Effect.gen(function*() {
        const { domain, list } = yield* audience
        const { ada, uuid } = yield* sendCampaign(list, domain, {
          subject: "News for {{ subscriber.first_name | default: 'you' }}",
          html: `<p>Hi {{ subscriber.first_name | default: "reader" }}</p><a href="::webviewUrl::">Open in the browser</a>`
        })
        const personal = /href="(http:\/\/mailroom\.test\/webview\/[^"]+)"/.exec(ada.html)![1]!
        expect(personal).toMatch(new RegExp(`/webview/${uuid}/[0-9a-f-]{36}/[A-Za-z0-9_-]+$`))
        const page = yield* get(yield* local(personal))
        expect(page.status).toBe(200)
        expect(page.headers.get("content-type")).toContain("text/html")
        expect(page.text).toMatch(/^<!doctype html>\n<html><head><meta charset="utf-8">.*<title>News for Ada<\/title><\/head><body><p>Hi Ada<\/p>/)
        const neutral = yield* get(yield* local(`${APP_URL}/webview/${uuid}`))
        expect(neutral.text).toContain("<title>News for you</title>")
        expect(neutral.text).toContain("<p>Hi reader</p>")
        const forged = yield* get(yield* local(personal.replace(/\/[A-Za-z0-9_-]+$/, "/AAAAAAAAAAAAAAAA")))
        expect([forged.status, forged.text]).not.toContain(200)
        expect(forged.status).toBe(404)
        expect(forged.text).not.toContain("Ada")
        // the pixel's signature is not the web view's
        const pixel = /src="http:\/\/mailroom\.test\/t\/o\/[^/]+\/([^"]+)"/.exec(ada.html)![1]!
        expect((yield* get(yield* local(personal.replace(/\/[A-Za-z0-9_-]+$/, `/${pixel}`)))).status).toBe(404)
      }))
  })
})
