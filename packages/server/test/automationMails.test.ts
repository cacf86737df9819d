import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const HTML = "<html><body><p>Hi {{ subscriber.first_name }}</p><a href=\"https://example.com/welcome\">Start</a> " +
  "<a href=\"{{ unsubscribeUrl }}\">Unsubscribe</a></body></html>"

const get = (url: string, init: RequestInit = {}) =>
  Effect.promise(() =>
    fetch(url, { redirect: "manual", ...init }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }))
  )

describe.each(stores)("automation mails on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list with subscribers `names` (first names as given); their uuids by name. */
    const audience = (names: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("am")}.example`
        const list = (yield* call("POST", "/api/email-lists", {
          body: { name: unique("L"), default_from_email: `news@${domain}`, default_from_name: "News" }
        })).body.data
        const people: Record<string, string> = {}
        for (const name of names) {
          const r = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, {
            body: { email: `${name}@${domain}`, first_name: name, skip_confirmation: true }
          })
          expectStatus(r, 201)
          people[name] = r.body.data.uuid
        }
        return { list, domain, people }
      })

    it.effect("create, read, update and delete; defaults, 422s and 404s", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = yield* call("POST", "/api/automation-mails", { body: { name: "Welcome", subject: "Hi {{ subscriber.first_name }}", html: HTML } })
        expectStatus(created, 201)
        const mail = created.body.data
        expect(mail).toMatchObject({
          name: "Welcome",
          subject: "Hi {{ subscriber.first_name }}",
          html: HTML,
          from_email: null,
          template_uuid: null,
          fields: {},
          track_opens: true,
          track_clicks: true,
          utm_tags: false,
          add_subscriber_tags: false,
          add_subscriber_link_tags: false,
          sent_to_number_of_subscribers: "0",
          open_count: "0",
          open_rate: 0,
          unsubscribe_rate: "0",
          bounce_count: "0"
        })
        expect(mail.created_at).toMatch(TIMESTAMP)
        expect(mail.updated_at).toMatch(TIMESTAMP)
        expect((yield* call("GET", `/api/automation-mails/${mail.uuid}`)).body.data).toEqual(mail)

        const updated = yield* call("PUT", `/api/automation-mails/${mail.uuid}`, {
          body: { name: "Welcome 2", from_email: "team@example.com", from_name: "Team", reply_to_email: "help@example.com", html: "<p>New</p>", track_clicks: false }
        })
        expectStatus(updated, 200)
        expect(updated.body.data).toMatchObject({
          uuid: mail.uuid,
          name: "Welcome 2",
          subject: null,
          from_email: "team@example.com",
          from_name: "Team",
          reply_to_email: "help@example.com",
          html: "<p>New</p>",
          track_clicks: false,
          created_at: mail.created_at
        })

        expectValidation(yield* call("POST", "/api/automation-mails", { body: {} }), ["name"])
        expectValidation(yield* call("POST", "/api/automation-mails", { body: { name: "  " } }), ["name"])
        expectValidation(yield* call("POST", "/api/automation-mails", { body: { name: "x", html: "{% if %}" } }), ["html"])
        expectValidation(yield* call("POST", "/api/automation-mails", { body: { name: "x", subject: "{{" } }), ["subject"])
        expectValidation(yield* call("POST", "/api/automation-mails", { body: { name: "x", from_email: "nope", track_opens: "yes" } }), [
          "from_email",
          "track_opens"
        ])
        expectValidation(yield* call("POST", "/api/automation-mails", { body: { name: "x", template_uuid: crypto.randomUUID() } }), ["template_uuid"])
        expectValidation(yield* call("PUT", `/api/automation-mails/${mail.uuid}`, { body: { html: "<p>no name</p>" } }), ["name"])

        const missing = crypto.randomUUID()
        expectMessageOnly(yield* call("GET", `/api/automation-mails/${missing}`), 404)
        expectMessageOnly(yield* call("PUT", `/api/automation-mails/${missing}`, { body: { name: "x" } }), 404)
        expectMessageOnly(yield* call("DELETE", `/api/automation-mails/${missing}`), 404)
        expectMessageOnly(yield* call("POST", `/api/automation-mails/${missing}/send-test`, { body: { email: "a@example.com" } }), 404)
        for (const part of ["opens", "clicks", "unsubscribes", "bounces"]) {
          expectMessageOnly(yield* call("GET", `/api/automation-mails/${missing}/${part}`), 404)
        }

        const deleted = yield* call("DELETE", `/api/automation-mails/${mail.uuid}`)
        expectStatus(deleted, 204)
        expect(deleted.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/automation-mails/${mail.uuid}`), 404)
      }))

    it.effect("a template with fields fills the html like a campaign's", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const template = (yield* call("POST", "/api/templates", { body: { name: unique("T"), html: "<h1>[[[title]]]</h1>" } })).body.data
        const r = yield* call("POST", "/api/automation-mails", { body: { name: "From template", template_uuid: template.uuid, fields: { title: "Hello" } } })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({ template_uuid: template.uuid, fields: { title: "Hello" } })
        expect(r.body.data.html).toContain("<h1>Hello</h1>")
      }))

    it.effect("the collection sorts by name (default) or created_at and filters by search, name and uuid; unknown keys are 400", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const tag = unique("c")
        const names = [`${tag} beta`, `${tag} Alpha`, `${tag} gamma`]
        const uuids: Array<string> = []
        for (const name of names) {
          uuids.push((yield* call("POST", "/api/automation-mails", { body: { name, subject: name === `${tag} gamma` ? "Needle inside" : null } })).body.data.uuid)
        }
        const page = (yield* call("GET", `/api/automation-mails?filter[search]=${tag}&per_page=2`)).body
        expect(page.data.map((m: { name: string }) => m.name)).toEqual([`${tag} Alpha`, `${tag} beta`])
        expect(page.meta).toMatchObject({ total: 3, per_page: 2, current_page: 1, last_page: 2 })
        const byCreated = (yield* call("GET", `/api/automation-mails?filter[search]=${tag}&sort=-created_at`)).body.data
        expect(byCreated.map((m: { uuid: string }) => m.uuid)).toEqual([...uuids].reverse())
        const descending = (yield* call("GET", `/api/automation-mails?filter[search]=${tag}&sort=-name`)).body.data
        expect(descending.map((m: { name: string }) => m.name)).toEqual([`${tag} gamma`, `${tag} beta`, `${tag} Alpha`])
        expect((yield* call("GET", `/api/automation-mails?filter[search]=NEEDLE`)).body.data.map((m: { uuid: string }) => m.uuid)).toContain(uuids[2])
        expect((yield* call("GET", `/api/automation-mails?filter[name]=${encodeURIComponent(`${tag} alpha`)}`)).body.data.map((m: { uuid: string }) => m.uuid))
          .toEqual([uuids[1]])
        expect((yield* call("GET", `/api/automation-mails?filter[uuid]=${uuids[0]}`)).body.data.map((m: { name: string }) => m.name)).toEqual([names[0]])
        expectMessageOnly(yield* call("GET", "/api/automation-mails?sort=subject"), 400)
        expectMessageOnly(yield* call("GET", "/api/automation-mails?filter[status]=x"), 400)
        expectMessageOnly(yield* call("GET", `/api/automation-mails/${uuids[0]}/opens?sort=nope`), 400)
      }))

    it.effect("send-test mails 1 to 10 addresses a [Test] copy with an unsubscribe preview, and counts nothing", () =>
      Effect.gen(function*() {
        const { call, mails, runJobs, url } = yield* TestServer
        const { domain } = yield* audience(["ada"])
        const mail = (yield* call("POST", "/api/automation-mails", {
          body: { name: "Test me", subject: "Hello {{ subscriber.first_name }}", html: HTML, from_email: `team@${domain}` }
        })).body.data
        expectValidation(yield* call("POST", `/api/automation-mails/${mail.uuid}/send-test`, { body: { email: "" } }), ["email"])
        expectValidation(yield* call("POST", `/api/automation-mails/${mail.uuid}/send-test`, { body: { email: "not-an-address" } }), ["email"])
        const eleven = Array.from({ length: 11 }, (_, i) => `t${i}@${domain}`).join(",")
        expectValidation(yield* call("POST", `/api/automation-mails/${mail.uuid}/send-test`, { body: { email: eleven } }), ["email"])
        const r = yield* call("POST", `/api/automation-mails/${mail.uuid}/send-test`, { body: { email: `ada@${domain}, tester@${domain}` } })
        expectStatus(r, 204)
        yield* runJobs
        const sent = (yield* mails).filter((m) => m.subject.startsWith("[Test] Hello"))
        const toAda = sent.find((m) => m.to.email === `ada@${domain}`)!
        const toTester = sent.find((m) => m.to.email === `tester@${domain}`)!
        expect(toAda.subject).toBe("[Test] Hello ada")
        expect(toTester.subject).toBe("[Test] Hello Jane")
        expect(toAda.from.email).toBe(`team@${domain}`)
        expect(toAda.headers?.["List-Unsubscribe"]).toContain(`${APP_URL}/u/`)
        const unsubscribe = /href="([^"]*\/u\/[^"]+)"/.exec(toAda.html)![1]!.replace(APP_URL, url)
        const oneClick = { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }
        expect((yield* get(unsubscribe, oneClick)).status).toBe(200)
        expect((yield* call("GET", `/api/automation-mails/${mail.uuid}`)).body.data).toMatchObject({
          sent_to_number_of_subscribers: "0",
          unsubscribe_count: "0"
        })
      }))

    it.effect("a queued send is delivered personalised with a tracked link, open pixel and unsubscribe header; opens, clicks and unsubscribes count", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, queueAutomationSends, url } = yield* TestServer
        const { domain, people } = yield* audience(["ada", "bob", "cy"])
        const mail = (yield* call("POST", "/api/automation-mails", {
          body: { name: "Onboarding", subject: "Welcome {{ subscriber.first_name }}", html: HTML, utm_tags: true, add_subscriber_tags: true }
        })).body.data
        const runId = Math.floor(Math.random() * 1_000_000)
        const queued = [
          { mailUuid: mail.uuid, subscriberUuid: people["ada"]!, runId },
          { mailUuid: mail.uuid, subscriberUuid: people["bob"]!, runId: runId + 1 }
        ]
        expect(yield* queueAutomationSends(queued)).toBe(2)
        expect(yield* queueAutomationSends(queued)).toBe(0)
        // cy unsubscribed before her mail went out: her send fails and nothing is mailed to her
        expectStatus(yield* call("POST", `/api/subscribers/${people["cy"]}/unsubscribe`), 204)
        expect(yield* queueAutomationSends([{ mailUuid: mail.uuid, subscriberUuid: people["cy"]!, runId: runId + 2 }])).toBe(1)
        expect(yield* deliverAutomationMails).toBe(3)

        const sends = (yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail.uuid}&per_page=50`)).body
        expect(sends.meta.total).toBe(3)
        for (const send of sends.data) expect(send).toMatchObject({ automation_mail_uuid: mail.uuid, campaign_uuid: null })
        const forCy = sends.data.find((s: { subscriber_uuid: string }) => s.subscriber_uuid === people["cy"])
        expect(forCy).toMatchObject({ sent_at: null, failure_reason: "The subscriber was no longer subscribed when the mail went out." })
        expect(forCy.failed_at).toMatch(TIMESTAMP)
        expect(sends.data.filter((s: { sent_at: string | null }) => s.sent_at !== null)).toHaveLength(2)

        const all = yield* mails
        expect(all.some((m) => m.to.email === `cy@${domain}`)).toBe(false)
        const toAda = all.find((m) => m.to.email === `ada@${domain}` && m.subject === "Welcome ada")!
        expect(toAda.from).toEqual({ email: `news@${domain}`, name: "News" })
        expect(toAda.html).toContain("<p>Hi ada</p>")
        expect(toAda.headers?.["List-Unsubscribe"]).toContain(`${APP_URL}/u/`)
        expect(toAda.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click")
        const found = [...toAda.html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(APP_URL, url))
        const open = found.find((u) => u.includes("/t/o/"))!
        const click = found.find((u) => u.includes("/t/c/"))!
        const unsubscribe = found.find((u) => u.includes("/u/"))!
        expect(open).toBeDefined()
        expect(found).not.toContain("https://example.com/welcome")
        expect(yield* call("GET", `/api/automation-mails/${mail.uuid}`).pipe(Effect.map((r) => r.body.data))).toMatchObject({
          sent_to_number_of_subscribers: "2",
          open_count: "0",
          click_count: "0"
        })

        expect((yield* get(open)).status).toBe(200)
        const redirect = yield* get(click)
        expect(redirect.status).toBe(302)
        expect(redirect.headers.get("location")).toBe("https://example.com/welcome?utm_source=newsletter&utm_medium=email&utm_campaign=onboarding")
        yield* get(click)
        const page = yield* get(unsubscribe)
        expect(page.status).toBe(200)
        expect((yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data.unsubscribed_at).toBeNull()
        const oneClick = { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }
        expect((yield* get(unsubscribe, oneClick)).status).toBe(200)
        expect((yield* get(unsubscribe, oneClick)).status).toBe(200)
        const ada = (yield* call("GET", `/api/subscribers/${people["ada"]}`)).body.data
        expect(ada.unsubscribed_at).not.toBeNull()
        expect(ada.tags).toEqual(expect.arrayContaining([`automation-mail-${mail.uuid}-opened`, `automation-mail-${mail.uuid}-clicked`]))

        expect((yield* call("GET", `/api/automation-mails/${mail.uuid}`)).body.data).toMatchObject({
          sent_to_number_of_subscribers: "2",
          open_count: "1",
          unique_open_count: "1",
          open_rate: 5000,
          click_count: "2",
          unique_click_count: "1",
          click_rate: 5000,
          unsubscribe_count: "1",
          unsubscribe_rate: "5000",
          bounce_count: "0"
        })
        const opens = (yield* call("GET", `/api/automation-mails/${mail.uuid}/opens`)).body
        expect(opens.meta.total).toBe(1)
        expect(opens.data[0]).toMatchObject({ subscriber_uuid: people["ada"], subscriber_email: `ada@${domain}`, open_count: 1 })
        const clicks = (yield* call("GET", `/api/automation-mails/${mail.uuid}/clicks`)).body
        expect(clicks.data).toEqual([{ url: "https://example.com/welcome", unique_click_count: 1, click_count: 2 }])
        const unsubscribes = (yield* call("GET", `/api/automation-mails/${mail.uuid}/unsubscribes`)).body
        expect(unsubscribes.data).toHaveLength(1)
        expect(unsubscribes.data[0]).toMatchObject({ automation_mail_uuid: mail.uuid, subscriber_uuid: people["ada"], subscriber_email: `ada@${domain}` })
        expect(unsubscribes.data[0].created_at).toMatch(TIMESTAMP)
        expect((yield* call("GET", `/api/automation-mails/${mail.uuid}/bounces`)).body.meta.total).toBe(0)
        const adaSend = (yield* call("GET", `/api/sends?filter[subscriber_uuid]=${people["ada"]}`)).body.data[0]
        expect(adaSend).toMatchObject({ automation_mail_uuid: mail.uuid, open_count: 1, click_count: 2 })
      }))

    it.effect("a bounce reported for an automation mail's send counts on the mail and lists in /bounces", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, queueAutomationSends } = yield* TestServer
        const { domain, people } = yield* audience(["dan"])
        const mail = (yield* call("POST", "/api/automation-mails", { body: { name: "Bouncy", html: "<p>Hi</p>" } })).body.data
        expect(yield* queueAutomationSends([{ mailUuid: mail.uuid, subscriberUuid: people["dan"]!, runId: Math.floor(Math.random() * 1e6) }])).toBe(1)
        yield* deliverAutomationMails
        const send = (yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail.uuid}`)).body.data[0]
        expectStatus(yield* call("POST", "/api/feedback", { body: { type: "bounce", email: `dan@${domain}`, send_uuid: send.uuid } }), 204)
        expect((yield* call("GET", `/api/automation-mails/${mail.uuid}`)).body.data).toMatchObject({ bounce_count: "1", bounce_rate: "10000" })
        const bounces = (yield* call("GET", `/api/automation-mails/${mail.uuid}/bounces`)).body
        expect(bounces.data).toEqual([expect.objectContaining({ subscriber_email: `dan@${domain}`, type: "bounce", bounce_count: 1 })])
      }))

    it.effect("the web view of an automation mail is personal through the mail's own link, neutral otherwise, 404 before any mail went out", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, queueAutomationSends, url } = yield* TestServer
        const { domain, people } = yield* audience(["eve"])
        const mail = (yield* call("POST", "/api/automation-mails", {
          body: {
            name: "Viewable",
            subject: "For {{ subscriber.first_name | default: 'you' }}",
            html: `<p>Hi {{ subscriber.first_name | default: "reader" }}</p><a href="{{ webviewUrl }}">Open in the browser</a>`
          }
        })).body.data
        expect((yield* get(`${url}/webview/${mail.uuid}`)).status).toBe(404)
        expect(yield* queueAutomationSends([{ mailUuid: mail.uuid, subscriberUuid: people["eve"]!, runId: Math.floor(Math.random() * 1e6) }])).toBe(1)
        yield* deliverAutomationMails
        const toEve = (yield* mails).find((m) => m.to.email === `eve@${domain}`)!
        const personal = /href="(http:\/\/mailroom\.test\/webview\/[^"]+)"/.exec(toEve.html)![1]!.replace(APP_URL, url)
        expect(personal).toMatch(new RegExp(`/webview/${mail.uuid}/[0-9a-f-]{36}/[A-Za-z0-9_-]+$`))
        const page = yield* get(personal)
        expect(page.status).toBe(200)
        expect(page.text).toContain("<title>For eve</title>")
        expect(page.text).toContain("<p>Hi eve</p>")
        const neutral = yield* get(`${url}/webview/${mail.uuid}`)
        expect(neutral.status).toBe(200)
        expect(neutral.text).toContain("<p>Hi reader</p>")
        expect((yield* get(personal.replace(/\/[A-Za-z0-9_-]+$/, "/AAAAAAAAAAAAAAAA"))).status).toBe(404)
      }))

    it.effect("a personal tracked link is filled for its subscriber, the mail and the subscriber's list when clicked", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, queueAutomationSends, url } = yield* TestServer
        const { domain, list, people } = yield* audience(["fay"])
        const written = "https://example.org/p?e={{ subscriber.email }}&m={{ campaign.name }}&l={{ list.name }}"
        const mail = (yield* call("POST", "/api/automation-mails", { body: { name: "Personal", html: `<p><a href="${written}">Yours</a></p>` } })).body.data
        expect(yield* queueAutomationSends([{ mailUuid: mail.uuid, subscriberUuid: people["fay"]!, runId: Math.floor(Math.random() * 1e6) }])).toBe(1)
        yield* deliverAutomationMails
        const toFay = (yield* mails).find((m) => m.to.email === `fay@${domain}`)!
        const click = /href="([^"]+\/t\/c\/[^"]+)"/.exec(toFay.html)![1]!.replace(APP_URL, url)
        const r = yield* get(click)
        expect(r.status).toBe(302)
        expect(r.headers.get("location")).toBe(`https://example.org/p?e=fay@${domain}&m=Personal&l=${list.name}`)
        const clicks = (yield* call("GET", `/api/automation-mails/${mail.uuid}/clicks`)).body.data
        expect(clicks).toEqual([{ url: written, unique_click_count: 1, click_count: 1 }])
      }))

    it.effect("the OpenAPI document describes every automation mail operation", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const paths = (yield* call("GET", "/api/openapi.json", { token: null })).body.paths
        expect(Object.keys(paths["/api/automation-mails"]).sort()).toEqual(["get", "post"])
        expect(Object.keys(paths["/api/automation-mails/{automationMail}"]).sort()).toEqual(["delete", "get", "put"])
        for (const part of ["send-test", "opens", "clicks", "unsubscribes", "bounces"]) {
          expect(paths[`/api/automation-mails/{automationMail}/${part}`], part).toBeDefined()
        }
      }))
  })
})
