import { describe, expect, it } from "@effect/vitest"
import { SmtpMailer } from "@mailroom/smtp"
import { startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Effect } from "effect"
import { smtpSink, type SmtpSinkHandle } from "../../smtp/test/SmtpSink.js"
import { expectStatus, unique } from "./expectations.js"
import { APP_URL, TestServer, TestServerLive } from "./TestServer.js"

/** The message text with quoted-printable soft line breaks removed and `=3D` decoded, so links read whole. */
const unfold = (raw: string): string => raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=")

/** Subscribes a new address to a new list requiring confirmation (sent by the background worker over SMTP). */
const subscribeUnconfirmed = Effect.gen(function*() {
  const { call } = yield* TestServer
  const list = yield* call("POST", "/api/email-lists", {
    body: { name: unique("Smtp "), default_from_email: "lists@example.com", requires_confirmation: true }
  })
  expectStatus(list, 201)
  const email = unique("smtp") + "@example.com"
  const r = yield* call("POST", `/api/email-lists/${list.body.data.uuid}/subscribers`, { body: { email } })
  expectStatus(r, 201)
  return { email, uuid: r.body.data.uuid as string, listName: list.body.data.name as string }
})

const expectConfirmationMail = (sink: SmtpSinkHandle, s: { email: string; uuid: string; listName: string }) => {
  const mails = sink.received.filter((m) => m.to.includes(s.email))
  expect(mails.length).toBe(1)
  const mail = mails[0]!
  expect(mail.from).toBe("lists@example.com")
  const raw = unfold(mail.raw)
  expect(raw).toContain(`${APP_URL}/confirm/${s.uuid}`)
  expect(raw).toMatch(/^Subject: Confirm your subscription to /m)
  expect(raw).toMatch(new RegExp(`^To: .*${s.email.replace(/\./g, "\\.")}`, "mi"))
}

describe("confirmation mail over SMTP (sqlite, background worker)", () => {
  it.live("the worker delivers the confirmation mail to the SMTP server", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      yield* Effect.gen(function*() {
        const s = yield* subscribeUnconfirmed
        yield* Effect.promise(() => sink.waitFor(1, 8_000))
        expectConfirmationMail(sink, s)
        // nothing else is sent afterwards (the job ran once)
        yield* Effect.sleep("1200 millis")
        expect(sink.received.length).toBe(1)
        expect(sink.rejected).toBe(0)
      }).pipe(Effect.provide(TestServerLive("sqlite", { mailer: SmtpMailer({ url: sink.url }), worker: true })))
    }).pipe(Effect.scoped), { timeout: 20_000 })

  it.live("a temporary SMTP failure (451) is retried and the mail still arrives", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      sink.failNext(451, 1)
      yield* Effect.gen(function*() {
        const s = yield* subscribeUnconfirmed
        yield* Effect.promise(() => sink.waitFor(1, 15_000))
        expect(sink.rejected).toBe(1)
        expectConfirmationMail(sink, s)
      }).pipe(Effect.provide(TestServerLive("sqlite", { mailer: SmtpMailer({ url: sink.url }), worker: true })))
    }).pipe(Effect.scoped), { timeout: 25_000 })

  it.live("a confirmation mail whose connection drops before the final reply is not sent again (it may have arrived)", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(
        Effect.promise(() => startFaultySmtpServer({ fault: ({ index, stage }) => (stage === "message" && index === 0 ? { drop: true } : undefined) })),
        (s) => Effect.promise(() => s.close())
      )
      yield* Effect.gen(function*() {
        const s = yield* subscribeUnconfirmed
        yield* Effect.promise(() => server.waitFor(1, 8_000))
        // a retry would come 5 s later
        yield* Effect.sleep("6500 millis")
        expect(server.received.map((m) => [m.to[0], m.unanswered])).toEqual([[s.email, true]])
      }).pipe(Effect.provide(TestServerLive("sqlite", { mailer: SmtpMailer({ url: server.url }), worker: true })))
    }).pipe(Effect.scoped), { timeout: 25_000 })
})
