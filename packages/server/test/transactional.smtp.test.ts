/**
 * A transactional mail over SMTP, delivered by the background worker as `npm start` runs it: one SMTP transaction to
 * every To, Cc and Bcc address, no Bcc header, the attachment and inline image as MIME parts, and the log says sent
 * with the Message-ID the server got. A recipient the server refuses fails the mail for everyone.
 */
import { describe, expect, it } from "@effect/vitest"
import { SmtpMailer } from "@mailroom/smtp"
import { Effect } from "effect"
import { smtpSink } from "../../smtp/test/SmtpSink.js"
import { expectStatus } from "./expectations.js"
import { TestServer, TestServerLive } from "./TestServer.js"

const waitForStatus = (uuid: string, status: string) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    for (let i = 0; i < 80; i++) {
      const logged = (yield* call("GET", `/api/transactional-mails/${uuid}`)).body.data
      if (logged.status === status) return logged
      yield* Effect.sleep("100 millis")
    }
    throw new Error(`mail ${uuid} never became ${status}`)
  })

describe.each(["sqlite", "postgres"] as const)("transactional mail over SMTP (%s, background worker)", (store) => {
  it.live("goes out at once to every recipient in one transaction, with its files, and the log says sent", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      yield* Effect.gen(function*() {
        const { call } = yield* TestServer
        const sent = yield* call("POST", "/api/transactional-mails/send", {
          body: {
            from: "Shop <shop@example.com>",
            to: "\"Doe, Jane\" <jane@example.com>, bob@example.com",
            cc: "Ann <ann@example.com>",
            bcc: "audit@example.com",
            subject: "Your invoice",
            html: "<p><img src=\"cid:logo\"> Thank you</p>",
            attachments: [
              { name: "logo.png", content: Buffer.from("png-bytes").toString("base64"), content_type: "image/png", content_id: "logo" },
              { name: "Rechnung März.pdf", content: Buffer.from("%PDF-1.4 invoice").toString("base64"), content_type: "application/pdf" }
            ]
          }
        })
        expectStatus(sent, 200)
        yield* Effect.promise(() => sink.waitFor(1, 8_000))
        const logged = yield* waitForStatus(sent.body.uuid, "sent")
        expect(sink.received).toHaveLength(1)
        const [mail] = sink.received
        expect([...mail!.to].sort()).toEqual(["ann@example.com", "audit@example.com", "bob@example.com", "jane@example.com"])
        expect(mail!.raw).toMatch(/^To: "Doe, Jane" <jane@example\.com>, bob@example\.com\r$/m)
        expect(mail!.raw).toMatch(/^Cc: Ann <ann@example\.com>\r$/m)
        expect(mail!.raw).not.toMatch(/^Bcc:/im)
        expect(mail!.raw).toContain("Content-Type: multipart/mixed")
        expect(mail!.raw).toContain("Content-Type: multipart/related")
        expect(mail!.raw).toContain("Content-ID: <logo>")
        expect(mail!.raw).toContain(Buffer.from("%PDF-1.4 invoice").toString("base64"))
        expect(mail!.raw).toContain(`Message-ID: ${logged.transport_message_id}`)
        expect(mail!.raw).toContain(`X-Mailroom-Send: ${logged.send_uuid}`)

        sink.refuseRecipient("refused@example.com", 550, "5.1.1 No such user")
        const refused = yield* call("POST", "/api/transactional-mails/send", {
          body: { from: "shop@example.com", to: "ok@example.com", cc: "refused@example.com", subject: "x", html: "<p>y</p>" }
        })
        const failed = yield* waitForStatus(refused.body.uuid, "failed")
        expect(failed.failure_reason).toContain("refused@example.com")
        expect(sink.received).toHaveLength(1)
        // the refusal names one address of several: nobody is suppressed on a guess
        const suppressed = (yield* call("GET", "/api/suppressions?filter[search]=example.com")).body.data.map((s: any) => s.email)
        expect(suppressed).toEqual([])
      }).pipe(Effect.provide(TestServerLive(store, { mailer: SmtpMailer({ url: sink.url }), worker: true })))
    }).pipe(Effect.scoped), { timeout: 30_000 })
})
