import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const HTML = "<html><body><p>Hi {{ subscriber.first_name }}</p><a href=\"https://example.com/a\">A</a> " +
  "<a href=\"https://example.com/b\">B</a> <a href=\"::unsubscribeUrl::\">Unsubscribe</a></body></html>"

describe.each(stores)("tracking links and feedback on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A sent campaign to ada and bob; the tracked URLs of each one's mail (on the test server's origin). */
    const sent = Effect.gen(function*() {
      const { call, deliver, mails, url } = yield* TestServer
      const domain = `${unique("t")}.example`
      const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("L"), default_from_email: `n@${domain}` } })).body.data
      const people: Record<string, string> = {}
      for (const name of ["ada", "bob"]) {
        const r = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `${name}@${domain}`, first_name: name } })
        people[name] = r.body.data.uuid
      }
      const campaign = (yield* call("POST", "/api/campaigns", {
        body: { name: "Tracked news", email_list_uuid: list.uuid, html: HTML, add_subscriber_tags: true }
      })).body.data.uuid as string
      expectStatus(yield* call("POST", `/api/campaigns/${campaign}/send`), 204)
      yield* deliver
      const links = (name: string) =>
        Effect.map(mails, (all) => {
          const html = all.find((m) => m.to.email === `${name}@${domain}`)!.html
          const found = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(APP_URL, url))
          return {
            open: found.find((u) => u.includes("/t/o/"))!,
            clicks: found.filter((u) => u.includes("/t/c/")),
            unsubscribe: found.find((u) => u.includes("/u/"))!
          }
        })
      return { campaign, people, domain, ada: yield* links("ada"), bob: yield* links("bob") }
    })
    const get = (url: string, init: RequestInit = {}) =>
      Effect.promise(() => fetch(url, { redirect: "manual", ...init }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() })))
    const stats = (campaign: string) => Effect.map(Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/campaigns/${campaign}`)), (r) => r.body.data)

    it.effect("a link with non-ASCII characters redirects to its ASCII form (IRI percent-encoded), utm tags on or off", () =>
      Effect.gen(function*() {
        const { call, deliver, mails, url } = yield* TestServer
        const domain = `${unique("iri")}.example`
        const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("L"), default_from_email: `n@${domain}` } })).body.data
        yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `ada@${domain}` } })
        const html = `<p><a href="https://ru.wikipedia.org/wiki/Почта">Почта</a></p>`
        for (const utm_tags of [false, true]) {
          const subject = `Почта ${utm_tags}`
          const campaign = (yield* call("POST", "/api/campaigns", { body: { name: "Почта", subject, email_list_uuid: list.uuid, html, utm_tags } })).body.data
          expectStatus(yield* call("POST", `/api/campaigns/${campaign.uuid}/send`), 204)
          yield* deliver
          const mail = (yield* mails).find((m) => m.to.email === `ada@${domain}` && m.subject === subject)!
          const click = /href="([^"]*\/t\/c\/[^"]+)"/.exec(mail.html)![1]!.replace(APP_URL, url)
          const r = yield* get(click)
          expect(r.status).toBe(302)
          const location = r.headers.get("location")!
          expect(location).toMatch(/^[\x21-\x7e]+$/)
          expect(location.startsWith("https://ru.wikipedia.org/wiki/%D0%9F%D0%BE%D1%87%D1%82%D0%B0")).toBe(true)
          expect(location.includes("utm_source")).toBe(utm_tags)
        }
      }))

    it.effect("the open pixel counts one open per send within 5 s, and a click redirects with utm tags and implies an open", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { ada, bob, campaign, people } = yield* sent
        const pixel = yield* get(ada.open)
        expect(pixel.status).toBe(200)
        expect(pixel.headers.get("content-type")).toBe("image/gif")
        yield* get(ada.open)
        const click = yield* get(bob.clicks[0]!)
        expect(click.status).toBe(302)
        expect(click.headers.get("location")).toBe("https://example.com/a?utm_source=newsletter&utm_medium=email&utm_campaign=tracked-news")
        yield* get(bob.clicks[0]!)
        const data = yield* stats(campaign)
        expect(data).toMatchObject({ open_count: "2", unique_open_count: "2", open_rate: 10000, click_count: "2", unique_click_count: "1", click_rate: 5000 })
        const clicks = (yield* call("GET", `/api/campaigns/${campaign}/clicks`)).body
        expect(clicks.data).toEqual([
          { url: "https://example.com/a", unique_click_count: 1, click_count: 2 },
          { url: "https://example.com/b", unique_click_count: 0, click_count: 0 }
        ])
        const opens = (yield* call("GET", `/api/campaigns/${campaign}/opens?sort=email`)).body.data
        expect(opens.map((o: { subscriber_uuid: string; open_count: number }) => [o.subscriber_uuid, o.open_count])).toEqual([
          [people["ada"], 1],
          [people["bob"], 1]
        ])
        const bobTags = (yield* call("GET", `/api/subscribers/${people["bob"]}`)).body.data.tags
        expect(bobTags).toEqual([`campaign-${campaign}-clicked`, `campaign-${campaign}-opened`])
      }))

    it.effect("every link checks its own signature: forged, swapped, cross-purpose or enumerated links answer 404 and count nothing", () =>
      Effect.gen(function*() {
        const { url } = yield* TestServer
        const { ada, bob, campaign } = yield* sent
        const other = yield* sent
        const last = /\/[^/]+$/
        const signatureOf = (u: string) => last.exec(u)![0].slice(1)
        const forged = (u: string) => u.replace(last, "/AAAAAAAAAAAAAAAA")
        const notFound = (u: string) =>
          Effect.map(get(u), (r) => {
            expect(r.status, u).toBe(404)
            expect(r.headers.get("location")).toBeNull()
            expect(r.text).not.toContain("example.com")
          })
        yield* notFound(forged(ada.open))
        yield* notFound(forged(ada.clicks[0]!))
        yield* notFound(forged(ada.unsubscribe))
        // ada's link under bob's send uuid, and a link of another campaign under ada's send and signature
        yield* notFound(ada.clicks[0]!.replace(/\/t\/c\/[^/]+/, bob.clicks[0]!.match(/\/t\/c\/[^/]+/)![0]))
        const foreignLink = other.ada.clicks[0]!.split("/").at(-2)!
        yield* notFound(ada.clicks[0]!.replace(/\/[^/]+\/([^/]+)$/, `/${foreignLink}/$1`))
        // each purpose has its own signature
        yield* notFound(ada.open.replace(last, `/${signatureOf(ada.unsubscribe)}`))
        yield* notFound(ada.unsubscribe.replace(last, `/${signatureOf(ada.open)}`))
        yield* notFound(ada.unsubscribe.replace(last, `/${signatureOf(ada.clicks[0]!)}`))
        expect((yield* get(ada.unsubscribe.replace(last, `/${signatureOf(ada.open)}`), { method: "POST" })).status).toBe(404)
        // link ids are signed: bare, altered or out-of-range ids are not links
        const id = ada.clicks[0]!.split("/").at(-2)!
        expect(id).toMatch(/^\d+\.[A-Za-z0-9_-]{16}$/)
        yield* notFound(ada.clicks[0]!.replace(`/${id}/`, `/${id.split(".")[0]}/`))
        yield* notFound(ada.clicks[0]!.replace(`/${id}/`, `/${Number(id.split(".")[0]) + 1}.${id.split(".")[1]}/`))
        yield* notFound(`${url}/t/c/x/999999/x`)
        yield* notFound(`${url}/t/c/x/2147483648/x`)
        yield* notFound(ada.clicks[0]!.replace(`/${id}/`, "/2147483648/"))
        expect(yield* stats(campaign)).toMatchObject({ open_count: "0", click_count: "0", unsubscribe_count: "0" })
        expect((yield* get(ada.clicks[0]!)).status).toBe(302)
      }))

    it.effect("public pages forbid scripts and framing; the web view is sandboxed; every answer says nosniff and no-referrer", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const { ada, campaign } = yield* sent
        const page = yield* get(ada.unsubscribe)
        const policy = page.headers.get("content-security-policy") ?? ""
        expect(policy).toContain("default-src 'none'")
        expect(policy).toContain("frame-ancestors 'none'")
        expect(policy).not.toMatch(/script-src/)
        const view = yield* get(`${url}/webview/${campaign}`)
        expect(view.status).toBe(200)
        const sandbox = view.headers.get("content-security-policy") ?? ""
        expect(sandbox).toMatch(/^sandbox /)
        expect(sandbox).not.toMatch(/allow-scripts|allow-same-origin|script-src/)
        const api = yield* call("GET", "/api/templates")
        for (const r of [page, view, api, yield* get(`${url}/t/c/x/1/x`)]) {
          expect(r.headers.get("x-content-type-options")).toBe("nosniff")
          expect(r.headers.get("referrer-policy")).toBe("no-referrer")
          expect(r.headers.get("x-frame-options")).toBe("DENY")
        }
      }))

    it.effect("GET on the unsubscribe link only shows a page; POST (one-click) unsubscribes once", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { ada, campaign, people } = yield* sent
        const page = yield* get(ada.unsubscribe)
        expect(page.status).toBe(200)
        expect(page.text).toContain("<form method=\"post\">")
        expect((yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data.unsubscribed_at).toBeNull()
        const oneClick = { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }
        expect((yield* get(ada.unsubscribe, oneClick)).status).toBe(200)
        expect((yield* get(ada.unsubscribe, oneClick)).status).toBe(200)
        expect((yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data.unsubscribed_at).not.toBeNull()
        expect(yield* stats(campaign)).toMatchObject({ unsubscribe_count: "1", unsubscribe_rate: "5000" })
        const list = (yield* call("GET", `/api/campaigns/${campaign}/unsubscribes`)).body
        expect(list.meta.total).toBe(1)
        expect(list.data[0]).toMatchObject({ campaign_uuid: campaign, subscriber_uuid: people["ada"] })
      }))

    it.effect("feedback: a hard bounce suppresses and unsubscribes, a soft bounce is only recorded, a complaint unsubscribes", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { campaign, domain, people } = yield* sent
        const sends = (yield* call("GET", `/api/sends?filter[campaign_uuid]=${campaign}&per_page=10`)).body.data
        const sendOf = (name: string) => sends.find((s: { subscriber_email: string }) => s.subscriber_email === `${name}@${domain}`).uuid
        expectStatus(yield* call("POST", "/api/feedback", { body: { type: "soft_bounce", email: `ada@${domain}`, send_uuid: sendOf("ada") } }), 204)
        expect((yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data.unsubscribed_at).toBeNull()
        expectStatus(yield* call("POST", "/api/feedback", { body: { type: "bounce", email: `ADA@${domain}` } }), 204)
        expect((yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data.unsubscribed_at).not.toBeNull()
        expectStatus(yield* call("GET", `/api/suppressions/ada@${domain}`), 200)
        expectStatus(yield* call("POST", "/api/feedback", { body: { type: "complaint", email: `bob@${domain}`, send_uuid: sendOf("bob") } }), 204)
        const bounces = (yield* call("GET", `/api/campaigns/${campaign}/bounces?sort=email`)).body.data
        expect(bounces.map((b: { subscriber_email: string; type: string; bounce_count: number }) => [b.subscriber_email.split("@")[0], b.type, b.bounce_count]))
          .toEqual(expect.arrayContaining([["ada", "soft_bounce", 1], ["ada", "bounce", 1], ["bob", "complaint", 1]]))
        expect(yield* stats(campaign)).toMatchObject({ bounce_count: "2", unsubscribe_count: "1" })
        const invalid = yield* call("POST", "/api/feedback", { body: { type: "nope", email: "x" } })
        expectStatus(invalid, 422)
        expect(Object.keys(invalid.body.errors).sort()).toEqual(["email", "type"])
      }))

    it.effect("the web view shows a sent campaign without personal data; drafts are not public", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const { campaign } = yield* sent
        const view = yield* get(`${url}/webview/${campaign}`)
        expect(view.status).toBe(200)
        expect(view.text).toContain("<p>Hi </p>")
        const draft = (yield* call("POST", "/api/campaigns", { body: { name: "d", email_list_uuid: (yield* stats(campaign)).email_list_uuid, html: "x" } })).body.data.uuid
        expect((yield* get(`${url}/webview/${draft}`)).status).toBe(404)
      }))
  })
})
