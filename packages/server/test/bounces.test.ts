/**
 * The one bounce policy, seen through the API: SMTP refusals at delivery and providers' feedback suppress and
 * unsubscribe the same way, soft bounces count until SOFT_BOUNCE_LIMIT (3) in a row, complaints unsubscribe.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { SmtpMailer } from "@mailroom/smtp"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Effect } from "effect"
import { expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

/** A list on a fresh domain with these subscribed members (local parts); the list's uuid and the domain. */
const listWith = (domain: string, locals: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Bounces "), default_from_email: `news@${domain}` } })
    expectStatus(list, 201)
    for (const local of locals) {
      expectStatus(yield* call("POST", `/api/email-lists/${list.body.data.uuid}/subscribers`, { body: { email: `${local}@${domain}` } }), 201)
    }
    return list.body.data.uuid as string
  })

/** Sends a new campaign to the list and delivers it; the campaign's uuid. */
const sendCampaign = (listUuid: string) =>
  Effect.gen(function*() {
    const { call, deliver } = yield* TestServer
    const c = yield* call("POST", "/api/campaigns", { body: { name: unique("B "), email_list_uuid: listUuid, subject: "Hi", html: "<p>Hi</p>" } })
    expectStatus(c, 201)
    expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send`), 204)
    yield* deliver
    return c.body.data.uuid as string
  })

/** The status of the subscriber with this address in the list. */
const statusIn = (listUuid: string, email: string) =>
  Effect.gen(function*() {
    const r = yield* (yield* TestServer).call("GET", `/api/email-lists/${listUuid}/subscribers?${query({ "filter[email]": email })}`)
    expectStatus(r, 200)
    const found = r.body.data[0] as { subscribed_at: string | null; unsubscribed_at: string | null } | undefined
    return found === undefined ? undefined : found.unsubscribed_at !== null ? "unsubscribed" : found.subscribed_at !== null ? "subscribed" : "unconfirmed"
  })

const suppressed = (email: string) => Effect.map(Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/suppressions/${email}`)), (r) => r.status === 200 ? r.body.data.reason : null)

const feedback = (body: Record<string, string>) =>
  Effect.flatMap(TestServer, ({ call }) => Effect.map(call("POST", "/api/feedback", { body }), (r) => expectStatus(r, 204)))

describe.each(stores)("SMTP refusals through the bounce policy on %s", (store) => {
  it.live("a 550 5.1.1 suppresses the address and unsubscribes it from every list; a 554 5.7.1 is a soft bounce; the next campaign skips only the first", () =>
    Effect.gen(function*() {
      const domain = `${unique("h")}.example`
      const sink: FaultySmtpServer = yield* Effect.acquireRelease(
        Effect.promise(() =>
          startFaultySmtpServer({
            fault: ({ recipient, stage }) =>
              stage === "rcpt" && recipient === `gone@${domain}` ? { reply: "550 5.1.1 <gone@x>: Recipient address rejected: User unknown" }
              : stage === "message" && recipient === `strict@${domain}` ? { reply: "554 5.7.1 Message rejected by policy" }
              : undefined
          })
        ),
        (s) => Effect.promise(() => s.close())
      )
      yield* Effect.gen(function*() {
        const { call } = yield* TestServer
        const news = yield* listWith(domain, ["gone", "strict", "fine"])
        const other = yield* listWith(domain, ["gone"])
        const first = yield* sendCampaign(news)

        const sends = (yield* call("GET", `/api/sends?${query({ "filter[campaign_uuid]": first })}`)).body.data as Array<any>
        const byEmail = (local: string) => sends.find((s) => s.subscriber_email === `${local}@${domain}`)
        expect(byEmail("gone")).toMatchObject({ sent_at: null, delivery_uncertain: false })
        expect(byEmail("gone").failure_reason).toContain("550 5.1.1")
        expect(byEmail("strict").failure_reason).toContain("554 5.7.1")
        expect(byEmail("fine")).toMatchObject({ failed_at: null, failure_reason: null })

        expect(yield* suppressed(`gone@${domain}`)).toBe("hard_bounce")
        expect(yield* suppressed(`strict@${domain}`)).toBeNull()
        expect(yield* statusIn(news, `gone@${domain}`)).toBe("unsubscribed")
        expect(yield* statusIn(other, `gone@${domain}`)).toBe("unsubscribed")
        expect(yield* statusIn(news, `strict@${domain}`)).toBe("subscribed")
        const bounces = (yield* call("GET", `/api/campaigns/${first}/bounces?sort=email`)).body.data as Array<any>
        expect(bounces.map((b) => [b.subscriber_email.split("@")[0], b.type])).toEqual([["gone", "bounce"], ["strict", "soft_bounce"]])
        expect((yield* call("GET", `/api/campaigns/${first}`)).body.data).toMatchObject({ status: "sent", bounce_count: "2" })

        sink.settings.fault = () => undefined
        const before = sink.received.length
        yield* sendCampaign(news)
        expect(sink.received.slice(before).map((m) => m.to[0]).sort()).toEqual([`fine@${domain}`, `strict@${domain}`])
      }).pipe(Effect.provide(TestServerLive(store, { mailer: SmtpMailer({ url: sink.url }) })))
    }).pipe(Effect.scoped), { timeout: 30_000 })
})

describe.each(stores)("provider feedback through the bounce policy on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("three soft bounces in a row suppress the address; a delivery between them starts the count again", () =>
      Effect.gen(function*() {
        const domain = `${unique("s")}.example`
        const email = `soft@${domain}`
        const news = yield* listWith(domain, ["soft"])
        const other = yield* listWith(domain, ["soft"])
        const sendOf = (campaign: string) =>
          Effect.map(
            Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/sends?${query({ "filter[campaign_uuid]": campaign })}`)),
            (r) => r.body.data[0].uuid as string
          )
        for (let i = 0; i < 2; i++) {
          yield* feedback({ type: "soft_bounce", email, send_uuid: yield* sendOf(yield* sendCampaign(news)) })
        }
        yield* sendCampaign(news) // delivered, no bounce: the streak ends
        yield* feedback({ type: "soft_bounce", email, send_uuid: yield* sendOf(yield* sendCampaign(news)) })
        yield* feedback({ type: "soft_bounce", email })
        expect(yield* suppressed(email)).toBeNull()
        expect(yield* statusIn(news, email)).toBe("subscribed")
        yield* feedback({ type: "soft_bounce", email })
        expect(yield* suppressed(email)).toBe("hard_bounce")
        expect(yield* statusIn(news, email)).toBe("unsubscribed")
        expect(yield* statusIn(other, email)).toBe("unsubscribed")
      }))

    it.effect("a complaint suppresses, unsubscribes everywhere and counts as the campaign's unsubscribe", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("c")}.example`
        const news = yield* listWith(domain, ["angry", "calm"])
        const other = yield* listWith(domain, ["angry"])
        const campaign = yield* sendCampaign(news)
        yield* feedback({ type: "complaint", email: `Angry@${domain}` })
        expect(yield* suppressed(`angry@${domain}`)).toBe("spam_complaint")
        expect(yield* statusIn(news, `angry@${domain}`)).toBe("unsubscribed")
        expect(yield* statusIn(other, `angry@${domain}`)).toBe("unsubscribed")
        expect(yield* statusIn(news, `calm@${domain}`)).toBe("subscribed")
        const stats = (yield* call("GET", `/api/campaigns/${campaign}`)).body.data
        expect(stats).toMatchObject({ unsubscribe_count: "1", bounce_count: "1" })
        const unsubscribes = (yield* call("GET", `/api/campaigns/${campaign}/unsubscribes`)).body.data as Array<any>
        expect(unsubscribes.map((u) => u.subscriber_email)).toEqual([`angry@${domain}`])
      }))
  })
})
