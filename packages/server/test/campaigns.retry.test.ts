import { describe, expect, it, layer } from "@effect/vitest"
import { MemoryMailbox } from "@mailroom/core/testing"
import { SmtpMailer } from "@mailroom/smtp"
import { Effect, Option } from "effect"
import { smtpSink } from "../../smtp/test/SmtpSink.js"
import { expectStatus, query, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

interface SendRow {
  readonly uuid: string
  readonly sent_at: string | null
  readonly failed_at: string | null
  readonly failure_reason: string | null
}

/** A list of three subscribed members on a fresh domain and a campaign to it, sent (not yet delivered). */
const sentCampaign = Effect.gen(function*() {
  const { call } = yield* TestServer
  const domain = `${unique("r")}.example`
  const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Retry "), default_from_email: `n@${domain}` } })
  expectStatus(list, 201)
  for (const local of ["a", "b", "c"]) {
    expectStatus(yield* call("POST", `/api/email-lists/${list.body.data.uuid}/subscribers`, { body: { email: `${local}@${domain}` } }), 201)
  }
  const c = yield* call("POST", "/api/campaigns", {
    body: { name: unique("R "), email_list_uuid: list.body.data.uuid, html: "<html><body><p>hello</p></body></html>" }
  })
  expectStatus(c, 201)
  expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send`), 204)
  return { uuid: c.body.data.uuid as string, domain }
})

const campaign = (uuid: string) =>
  Effect.gen(function*() {
    const r = yield* (yield* TestServer).call("GET", `/api/campaigns/${uuid}`)
    expectStatus(r, 200)
    return r.body.data
  })

const sendsOf = (uuid: string) =>
  Effect.gen(function*() {
    const r = yield* (yield* TestServer).call("GET", `/api/sends?${query({ "filter[campaign_uuid]": uuid, per_page: 100 })}`)
    expectStatus(r, 200)
    return r.body.data as Array<SendRow>
  })

/** One send failed permanently mentioning `code`, the two others sent; the campaign is sent to 2. */
const expectOnePermanentFailure = (uuid: string, code: string) =>
  Effect.gen(function*() {
    const sends = yield* sendsOf(uuid)
    expect(sends.length).toBe(3)
    const failed = sends.filter((s) => s.failed_at !== null)
    expect(failed.length).toBe(1)
    expect(failed[0]!.failed_at).toMatch(TIMESTAMP)
    expect(failed[0]!.sent_at).toBeNull()
    expect(failed[0]!.failure_reason).toContain(code)
    expect(sends.filter((s) => s.sent_at !== null && s.failed_at === null).length).toBe(2)
    const c = yield* campaign(uuid)
    expect(c).toMatchObject({ status: "sent", sent_to_number_of_subscribers: "2" })
  })

/** One send is still pending (neither sent nor failed), two are sent, and the campaign keeps sending, counting them. */
const expectOneRetryPending = (uuid: string) =>
  Effect.gen(function*() {
    const sends = yield* sendsOf(uuid)
    expect(sends.length).toBe(3)
    const pending = sends.filter((s) => s.sent_at === null && s.failed_at === null)
    expect(pending.length).toBe(1)
    expect(sends.filter((s) => s.sent_at !== null).length).toBe(2)
    expect(yield* campaign(uuid)).toMatchObject({ status: "sending", sent_to_number_of_subscribers: "2" })
  })

describe.each(stores)("delivery failures with the memory mailer on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const mailbox = Effect.map(Effect.serviceOption(MemoryMailbox), Option.getOrThrowWith(() => new Error("no MemoryMailbox")))
    const mailCount = (domain: string) =>
      Effect.map(Effect.flatMap(TestServer, ({ mails }) => mails), (all) => all.filter((m) => m.to.email.endsWith(`@${domain}`)).length)

    it.effect("a permanent failure marks that send failed with the reason; the others go out and the campaign is sent", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, uuid } = yield* sentCampaign
        yield* (yield* mailbox).failNext(1, true)
        yield* deliver
        yield* expectOnePermanentFailure(uuid, "550")
        expect(yield* mailCount(domain)).toBe(2)
        expect((yield* campaign(uuid)).bounce_count).toBe("1")
        // the failed send is not tried again
        yield* deliver
        expect(yield* mailCount(domain)).toBe(2)
        yield* expectOnePermanentFailure(uuid, "550")
      }))

    it.effect("a temporary failure leaves that send pending for a later retry and the campaign sending", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, uuid } = yield* sentCampaign
        yield* (yield* mailbox).failNext(1, false)
        yield* deliver
        yield* expectOneRetryPending(uuid)
        expect(yield* mailCount(domain)).toBe(2)
        // another pass before the retry is due changes nothing
        yield* deliver
        yield* expectOneRetryPending(uuid)
        expect(yield* mailCount(domain)).toBe(2)
        // leave nothing due for the other tests of this server
        expectStatus(yield* call("POST", `/api/campaigns/${uuid}/pause`), 204)
      }))
  })
})

describe.each(stores)("delivery failures over SMTP on %s", (store) => {
  it.live("an SMTP 550 answer fails that send with the reason; the campaign is still sent", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      yield* Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, uuid } = yield* sentCampaign
        sink.failNext(550, 1)
        yield* deliver
        yield* expectOnePermanentFailure(uuid, "550")
        expect(sink.rejected).toBe(1)
        expect(sink.received.filter((m) => m.to.some((to) => to.endsWith(`@${domain}`))).length).toBe(2)
      }).pipe(Effect.provide(TestServerLive(store, { mailer: SmtpMailer({ url: sink.url }) })))
    }).pipe(Effect.scoped), { timeout: 30_000 })

  it.live("an SMTP 451 answer leaves that send pending for a retry; the campaign keeps sending", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      yield* Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { domain, uuid } = yield* sentCampaign
        sink.failNext(451, 1)
        yield* deliver
        yield* expectOneRetryPending(uuid)
        expect(sink.rejected).toBe(1)
        expect(sink.received.filter((m) => m.to.some((to) => to.endsWith(`@${domain}`))).length).toBe(2)
      }).pipe(Effect.provide(TestServerLive(store, { mailer: SmtpMailer({ url: sink.url }) })))
    }).pipe(Effect.scoped), { timeout: 30_000 })
})
