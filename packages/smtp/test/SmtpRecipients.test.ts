import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Mailer, type MailMessage } from "@mailroom/core"
import { SmtpMailer } from "@mailroom/smtp"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Context, Effect, Either, Layer } from "effect"
import { parseEml } from "./eml.js"
import { parseMime, shape } from "./mimeTree.js"
import { smtpSink } from "./SmtpSink.js"

const pdf = randomBytes(20_000)

const message: MailMessage = {
  from: { email: "shop@example.com", name: "Shop" },
  to: { email: "ana@example.org", name: "Ana" },
  moreTo: [{ email: "bo@example.org" }],
  cc: [{ email: "cy@example.org", name: "Cy" }],
  bcc: [{ email: "audit@example.com" }, { email: "ANA@example.org" }],
  subject: "Your order",
  html: "<p>Thanks <img src=\"cid:logo\"></p>\n.a line with a leading dot",
  attachments: [
    { name: "logo.png", content: Buffer.from("not really a png").toString("base64"), contentType: "image/png", contentId: "logo" },
    { name: "Fatura nº 7.pdf", content: pdf.toString("base64"), contentType: "application/pdf" }
  ]
}
const recipients = ["ana@example.org", "bo@example.org", "cy@example.org", "audit@example.com"]

/** Builds the layer in the test's scope (`Effect.provide(Mailer, layer)` would close the pool right after the lookup). */
const mailerIn = (layer: Layer.Layer<Mailer>) => Effect.map(Layer.build(layer), Context.get(Mailer))

describe("SmtpMailer with several recipients", () => {
  it.scopedLive("delivers one message to every envelope recipient once, with To and Cc headers, no Bcc header, and its files", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url }))
      yield* mailer.send(message)
      const [mail] = yield* Effect.promise(() => sink.waitFor(1))
      expect(sink.received).toHaveLength(1)
      expect(mail!.from).toBe("shop@example.com")
      expect(mail!.to).toEqual(recipients)
      const { headers } = parseEml(mail!.raw)
      expect(headers.get("to")).toBe("Ana <ana@example.org>, bo@example.org")
      expect(headers.get("cc")).toBe("Cy <cy@example.org>")
      expect(headers.has("bcc")).toBe(false)
      expect(mail!.raw).not.toContain("audit@example.com")
      const tree = parseMime(mail!.raw)
      expect(shape(tree)).toEqual([
        "multipart/mixed",
        [["multipart/related", [["multipart/alternative", ["text/plain", "text/html"]], "image/png"]], "application/pdf"]
      ])
      const [related, attachment] = tree.parts
      expect(related!.parts[0]!.parts[1]!.body.toString("utf8")).toBe(message.html)
      expect(related!.parts[1]!.headers.get("content-id")).toBe("<logo>")
      expect(attachment!.disposition?.params.get("filename")).toBe("Fatura nº 7.pdf")
      expect(attachment!.body.equals(pdf)).toBe(true)
    }))

  it.scopedLive("a refused Cc recipient (550) fails the whole mail as permanent, naming the address; nobody gets it", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      sink.refuseRecipient("cy@example.org", 550, "5.1.1 No such user")
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url, maxConnections: 1 }))
      const error = yield* Effect.flip(mailer.send(message))
      expect(error).toMatchObject({ failure: "permanent", code: 550, enhancedCode: "5.1.1" })
      expect(error.message).toContain("cy@example.org")
      expect(error.message).toContain("550 5.1.1 No such user")
      // the connection is still good: the next mail (without that recipient) goes through, and only it arrives
      yield* mailer.send({ ...message, cc: [] })
      yield* Effect.promise(() => sink.waitFor(1))
      expect(sink.received.map((mail) => mail.to)).toEqual([recipients.filter((to) => to !== "cy@example.org")])
    }))

  it.scopedLive("a 4xx on one recipient is temporary, and nothing is delivered", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      sink.refuseRecipient("audit@example.com", 451, "4.3.0 Mailbox busy")
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url }))
      const error = yield* Effect.flip(mailer.send(message))
      expect(error).toMatchObject({ failure: "temporary", code: 451 })
      expect(error.message).toContain("audit@example.com")
      yield* Effect.sleep("100 millis")
      expect(sink.received).toHaveLength(0)
    }))

  it.scopedLive("a message with files that cannot be written is a permanent MailError, and nothing is sent", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url }))
      const badType = yield* Effect.flip(mailer.send({ ...message, attachments: [{ name: "a", content: "", contentType: "image/png\r\nBcc: x@example.net" }] }))
      const badId = yield* Effect.flip(mailer.send({ ...message, attachments: [{ name: "a", content: "", contentType: "image/png", contentId: "a b" }] }))
      for (const error of [badType, badId]) {
        expect(error._tag).toBe("MailError")
        expect(error.failure).toBe("permanent")
        expect(error.message).toMatch(/^Invalid message: Invalid attachment content (type|id)/)
      }
      expect(sink.received).toHaveLength(0)
    }))
})

/** A faulty server for the test's scope. */
const faulty = (settings: Parameters<typeof startFaultySmtpServer>[0]) =>
  Effect.acquireRelease(Effect.promise(() => startFaultySmtpServer(settings)), (server) => Effect.promise(() => server.close()))

/** A SmtpMailer on `server` for the test's scope (one connection, so faults hit the mails in order). */
const mailerOn = (server: FaultySmtpServer) => mailerIn(SmtpMailer({ url: server.url, maxConnections: 1 }))

/** The outcome of a send: "sent" or the failure kind. */
const outcome = (mailer: Context.Tag.Service<Mailer>, mail: MailMessage) =>
  Effect.map(Effect.either(mailer.send(mail)), (result) => (Either.isRight(result) ? "sent" : result.left.failure))

describe.each([false, true])("SmtpMailer with several recipients under faults (CHUNKING %s)", (chunking) => {
  it.scopedLive("a refused recipient stops the mail before DATA or BDAT: the server that took the others has no message", () =>
    Effect.gen(function*() {
      // the server takes mail for the recipients it accepted, as a real MTA would after a pipelined DATA
      const server = yield* faulty({
        chunking,
        fault: ({ recipient, stage }) => (stage === "rcpt" && recipient === "bo@example.org" ? { reply: "550 5.1.1 <bo@example.org>: User unknown" } : undefined)
      })
      const mailer = yield* mailerOn(server)
      const error = yield* Effect.flip(mailer.send(message))
      expect(error).toMatchObject({ failure: "permanent", code: 550, enhancedCode: "5.1.1" })
      expect(error.message).toContain("RCPT TO:<bo@example.org> refused")
      expect(server.received).toHaveLength(0)
      expect(server.refused.rcpt).toBe(1)
      yield* mailer.send({ ...message, moreTo: [] })
      expect(server.received.map((mail) => [mail.to, mail.chunked])).toEqual([[["ana@example.org", "cy@example.org", "audit@example.com"], chunking]])
      expect(server.connections()).toBe(1)
    }))

  it.scopedLive("with a 4xx and a 5xx refusal the mail is permanent: retrying cannot deliver it to everyone", () =>
    Effect.gen(function*() {
      const replies: Record<string, string> = { "bo@example.org": "452 4.2.2 Mailbox full", "audit@example.com": "553 5.7.1 Relay denied" }
      const server = yield* faulty({ chunking, fault: ({ recipient, stage }) => (stage === "rcpt" && recipient !== null && replies[recipient] ? { reply: replies[recipient] } : undefined) })
      const mailer = yield* mailerOn(server)
      const error = yield* Effect.flip(mailer.send(message))
      expect(error).toMatchObject({ failure: "permanent", code: 553 })
      expect(error.message).toContain("audit@example.com")
      expect(server.received).toHaveLength(0)
    }))

  it.scopedLive("a connection dropped among the RCPT TO answers is retried on a new connection; the mail arrives once", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking, fault: ({ index, stage }) => (stage === "rcpt" && index === 2 ? { drop: true } : undefined) })
      const mailer = yield* mailerOn(server)
      expect(yield* outcome(mailer, message)).toBe("sent")
      expect(server.received.map((mail) => mail.to)).toEqual([recipients])
      expect(server.connections()).toBe(2)
    }))

  it.scopedLive("a connection dropped after the message went out is an unknown outcome, never sent again", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking, fault: ({ stage }) => (stage === "message" ? { drop: true } : undefined) })
      const mailer = yield* mailerOn(server)
      expect(yield* outcome(mailer, message)).toBe("unknown")
      expect(server.received.map((mail) => [mail.to, mail.unanswered])).toEqual([[recipients, true]])
      expect(server.received[0]!.raw).toContain("\r\n.a line with a leading dot")
    }))
})
