import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const UNKNOWN = "6b2c1d2e-0000-4000-8000-000000000000"

interface Page {
  readonly status: number
  readonly contentType: string
  readonly location: string | null
  readonly text: string
}

describe.each(stores)("confirmation link on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const createList = (extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Confirm & <Co> "), default_from_email: "news@example.com", requires_confirmation: true, ...extra }
        })
        expectStatus(r, 201)
        return r.body.data as { uuid: string; name: string }
      })
    /** Subscribes a new address and returns it with the link of the confirmation mail it was sent. */
    const subscribeAndGetLink = (list: string) =>
      Effect.gen(function*() {
        const { call, mails, runJobs } = yield* TestServer
        const email = unique("link") + "@example.com"
        const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email } })
        expectStatus(r, 201)
        yield* runJobs
        const sent = (yield* mails).filter((m) => m.to.email === email)
        expect(sent.length).toBe(1)
        const link = sent[0]!.html.match(/http:\/\/mailroom\.test\/confirm\/[0-9a-f-]+\/[A-Za-z0-9_-]+/)?.[0]
        expect(link).toMatch(new RegExp(`^${APP_URL}/confirm/${r.body.data.uuid}/[A-Za-z0-9_-]{16}$`))
        expect(sent[0]!.text).toContain(link)
        return { uuid: r.body.data.uuid as string, email, link: link! }
      })
    /** Opens a link of a mail on the test server (GET, or the page's button: POST), as a browser without a token would. */
    const open = (link: string, method: "GET" | "HEAD" | "POST" = "GET") =>
      Effect.gen(function*() {
        const { url } = yield* TestServer
        return yield* Effect.promise(async (): Promise<Page> => {
          const response = await fetch(link.replace(APP_URL, url), { method, redirect: "manual", headers: { accept: "text/html" } })
          return {
            status: response.status,
            contentType: response.headers.get("content-type") ?? "",
            location: response.headers.get("location"),
            text: await response.text()
          }
        })
      })
    const subscriber = (uuid: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/subscribers/${uuid}`)
        expectStatus(r, 200)
        return r.body.data
      })
    const activeCount = (list: string) =>
      Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/email-lists/${list}`)).pipe(
        Effect.map((r) => r.body.data.active_subscribers_count as number)
      )
    const escaped = (name: string) => name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    /** The page's button. */
    const press = (link: string) => open(link, "POST")

    it.effect("opening the link (GET or HEAD, as a mail scanner does) shows a page with a button and confirms nothing", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        const page = yield* open(link)
        expect(page.status, page.text).toBe(200)
        expect(page.contentType).toContain("text/html")
        expect(page.text).toContain("Confirm your subscription")
        expect(page.text).toContain(`<form method="post">`)
        expect(page.text).toContain(escaped(list.name))
        const head = yield* open(link, "HEAD")
        expect(head.status).toBeLessThan(300)
        expect((yield* subscriber(uuid)).subscribed_at).toBeNull()
        expect(yield* activeCount(list.uuid)).toBe(0)
      }))

    it.effect("a link with another subscriber's or a made-up signature is refused and changes nothing", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const first = yield* subscribeAndGetLink(list.uuid)
        const second = yield* subscribeAndGetLink(list.uuid)
        const borrowed = `${APP_URL}/confirm/${second.uuid}/${first.link.split("/").at(-1)}`
        for (const link of [borrowed, `${APP_URL}/confirm/${second.uuid}/AAAAAAAAAAAAAAAA`]) {
          expect((yield* open(link)).status).toBe(404)
          expect((yield* press(link)).status).toBe(404)
        }
        expect((yield* subscriber(second.uuid)).subscribed_at).toBeNull()
      }))

    it.effect("a bare-uuid link of an older mail works the same safe way: the page, then the button confirms", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const { uuid } = yield* subscribeAndGetLink(list.uuid)
        const bare = `${APP_URL}/confirm/${uuid}`
        expect((yield* open(bare)).text).toContain("Confirm your subscription")
        expect((yield* subscriber(uuid)).subscribed_at).toBeNull()
        expect((yield* press(bare)).text).toContain("Subscription confirmed")
        expect((yield* subscriber(uuid)).subscribed_at).toMatch(TIMESTAMP)
      }))

    it.effect("pressing the button confirms the subscription and shows a page naming the list", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expect((yield* subscriber(uuid)).subscribed_at).toBeNull()
        const page = yield* press(link)
        expect(page.status, page.text).toBe(200)
        expect(page.contentType).toContain("text/html")
        expect(page.text).toContain("Subscription confirmed")
        expect(page.text).toContain(escaped(list.name))
        const after = yield* subscriber(uuid)
        expect(after.subscribed_at).toMatch(TIMESTAMP)
        expect(after.unsubscribed_at).toBeNull()
        expect(yield* activeCount(list.uuid)).toBe(1)
      }))

    it.effect("confirming again, or opening the link again, shows \"Already confirmed\" and changes nothing", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expect((yield* press(link)).status).toBe(200)
        const confirmed = yield* subscriber(uuid)
        yield* Effect.sleep("10 millis")
        expect((yield* open(link)).text).toContain("Already confirmed")
        const again = yield* press(link)
        expect(again.status, again.text).toBe(200)
        expect(again.contentType).toContain("text/html")
        expect(again.text).toContain("Already confirmed")
        expect(again.text).toContain(escaped(list.name))
        expect(yield* subscriber(uuid)).toEqual(confirmed)
        expect(yield* activeCount(list.uuid)).toBe(1)
      }))

    it.effect("a subscriber confirmed through the API sees \"Already confirmed\" on the link", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expectStatus(yield* call("POST", `/api/subscribers/${uuid}/confirm`), 204)
        const page = yield* open(link)
        expect(page.status).toBe(200)
        expect(page.text).toContain("Already confirmed")
      }))

    it.effect("the link needs no token: it works without Authorization while the API refuses", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expect((yield* call("GET", `/api/subscribers/${uuid}`, { token: null })).status).toBe(401)
        expect((yield* press(link)).status).toBe(200)
        expect((yield* subscriber(uuid)).subscribed_at).toMatch(TIMESTAMP)
      }))

    it.effect("with redirect_after_subscribed the button confirms and redirects there (303)", () =>
      Effect.gen(function*() {
        const list = yield* createList({ redirect_after_subscribed: "https://example.com/welcome" })
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        const page = yield* press(link)
        expect(page.status, page.text).toBe(303)
        expect(page.location).toBe("https://example.com/welcome")
        expect((yield* subscriber(uuid)).subscribed_at).toMatch(TIMESTAMP)
      }))

    it.effect("redirect targets must be http(s) URLs (422 otherwise); a non-ASCII one redirects in its ASCII form", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const bad = ["javascript:alert(1)", "//evil.example/x", "ftp://example.com/", "https://example.com/a\r\nSet-Cookie: x=1", "welcome"]
        for (const target of bad) {
          for (const field of ["redirect_after_subscribed", "redirect_after_unsubscribed"]) {
            const r = yield* call("POST", "/api/email-lists", {
              body: { name: unique("Bad redirect "), default_from_email: "news@example.com", [field]: target }
            })
            expect(r.status, target).toBe(422)
            expect(Object.keys(r.body.errors)).toEqual([field])
          }
        }
        const list = yield* createList({ redirect_after_subscribed: "https://пример.рф/добро-пожаловать?имя=Ада" })
        const { link } = yield* subscribeAndGetLink(list.uuid)
        const page = yield* press(link)
        expect(page.status, page.text).toBe(303)
        expect(page.location).toBe(
          "https://xn--e1afmkfd.xn--p1ai/%D0%B4%D0%BE%D0%B1%D1%80%D0%BE-%D0%BF%D0%BE%D0%B6%D0%B0%D0%BB%D0%BE%D0%B2%D0%B0%D1%82%D1%8C?%D0%B8%D0%BC%D1%8F=%D0%90%D0%B4%D0%B0"
        )
      }))

    it.effect("redirect_after_subscribed set later with PUT is honoured", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        const put = yield* call("PUT", `/api/email-lists/${list.uuid}`, {
          body: {
            name: list.name,
            default_from_email: "news@example.com",
            requires_confirmation: true,
            redirect_after_subscribed: "https://example.org/thanks?x=1"
          }
        })
        expectStatus(put, 200)
        expect(put.body.data.redirect_after_subscribed).toBe("https://example.org/thanks?x=1")
        const page = yield* press(link)
        expect(page.status, page.text).toBe(303)
        expect(page.location).toBe("https://example.org/thanks?x=1")
        expect((yield* subscriber(uuid)).subscribed_at).toMatch(TIMESTAMP)
      }))

    it.effect("when confirmed again the link redirects to redirect_after_already_subscribed if set", () =>
      Effect.gen(function*() {
        const list = yield* createList({
          redirect_after_subscribed: "https://example.com/welcome",
          redirect_after_already_subscribed: "https://example.com/already"
        })
        const { link } = yield* subscribeAndGetLink(list.uuid)
        expect((yield* press(link)).location).toBe("https://example.com/welcome")
        const again = yield* press(link)
        expect(again.status, again.text).toBe(303)
        expect(again.location).toBe("https://example.com/already")
      }))

    it.effect("a link opened after unsubscribing does not subscribe the address again", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expect((yield* press(link)).status).toBe(200)
        expectStatus(yield* call("POST", `/api/subscribers/${uuid}/unsubscribe`), 204)
        const page = yield* press(link)
        expect(page.status, page.text).toBe(200)
        expect(page.contentType).toContain("text/html")
        expect(page.text).not.toContain("Subscription confirmed")
        expect((yield* subscriber(uuid)).unsubscribed_at).toMatch(TIMESTAMP)
        expect(yield* activeCount(list.uuid)).toBe(0)
      }))

    it.effect("an unknown subscriber answers a 404 html page", () =>
      Effect.gen(function*() {
        for (const id of [UNKNOWN, "not-a-uuid"]) {
          const page = yield* open(`${APP_URL}/confirm/${id}`)
          expect(page.status, page.text).toBe(404)
          expect(page.contentType).toContain("text/html")
        }
      }))

    it.effect("a deleted subscriber's link answers 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const { link, uuid } = yield* subscribeAndGetLink(list.uuid)
        expectStatus(yield* call("DELETE", `/api/subscribers/${uuid}`), 204)
        expect((yield* open(link)).status).toBe(404)
      }))
  })
})
