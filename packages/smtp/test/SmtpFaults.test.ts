import { createServer } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Mailer, type MailError, type MailMessage } from "@mailroom/core"
import { SmtpMailer } from "@mailroom/smtp"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Context, Effect, Either, Layer } from "effect"

const message = (to: string): MailMessage => ({
  from: { email: "news@example.com", name: "News" },
  to: { email: to },
  subject: "Hello",
  html: "<p>Hello</p>\n<p>.a line with a leading dot</p>"
})

/** A faulty server for the test's scope. */
const faulty = (settings: Parameters<typeof startFaultySmtpServer>[0]) =>
  Effect.acquireRelease(Effect.promise(() => startFaultySmtpServer(settings)), (server) => Effect.promise(() => server.close()))

/** A SmtpMailer on `server` for the test's scope (one connection, so faults hit the mails in order). */
const mailerOn = (server: FaultySmtpServer, query = "") =>
  Effect.map(Layer.build(SmtpMailer({ url: `${server.url}${query}`, maxConnections: 1 })), Context.get(Mailer))

/** Sends each address in turn; the outcome of each: "sent" or the failure kind. */
const sendAll = (mailer: Context.Tag.Service<Mailer>, addresses: ReadonlyArray<string>) =>
  Effect.forEach(addresses, (to) =>
    Effect.map(Effect.either(mailer.send(message(to))), (result) => (Either.isRight(result) ? "sent" : result.left.failure)))

describe.each([false, true])("SmtpMailer under faults (CHUNKING %s)", (chunking) => {
  it.scopedLive("a connection dropped after the whole message, before the final reply, is an unknown outcome, never retried", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking, fault: ({ index, stage }) => (stage === "message" && index === 1 ? { drop: true } : undefined) })
      const mailer = yield* mailerOn(server)
      const outcomes = yield* sendAll(mailer, ["a@example.org", "b@example.org", "c@example.org"])
      expect(outcomes).toEqual(["sent", "unknown", "sent"])
      // the server has the dropped mail once: the client did not send it again
      expect(server.received.map((m) => [m.to[0], m.unanswered, m.chunked])).toEqual([
        ["a@example.org", false, chunking],
        ["b@example.org", true, chunking],
        ["c@example.org", false, chunking]
      ])
      expect(server.received[1]!.raw).toContain("\r\n.a line with a leading dot")
    }))

  it.scopedLive("a connection dropped before the message went out is retried on a new connection; with BDAT the message goes with the commands, so it is unknown", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking, fault: (c) => (c.stage === (chunking ? "mail" : "data") && c.index === 0 ? { drop: true } : undefined) })
      const mailer = yield* mailerOn(server)
      expect(yield* sendAll(mailer, ["a@example.org", "b@example.org"])).toEqual([chunking ? "unknown" : "sent", "sent"])
      expect(server.counts()).toEqual(new Map(chunking ? [["b@example.org", 1]] : [["a@example.org", 1], ["b@example.org", 1]]))
      expect(server.connections()).toBe(2)
    }))

  it.scopedLive("refusals keep their reply code and enhanced status code, temporary or permanent by class", () =>
    Effect.gen(function*() {
      const replies: Record<string, string> = {
        "user@example.org": "550 5.1.1 <user@example.org>: Recipient address rejected: User unknown",
        "busy@example.org": "451 4.3.0 Try again later",
        "spam@example.org": "554 5.7.1 Message rejected as spam"
      }
      const server = yield* faulty({
        chunking,
        fault: ({ recipient, stage }) => {
          const reply = recipient === null ? undefined : replies[recipient]
          if (reply === undefined) return undefined
          return (stage === "rcpt") === !recipient!.startsWith("spam") ? { reply } : undefined
        }
      })
      const mailer = yield* mailerOn(server)
      const errors = yield* Effect.forEach(Object.keys(replies), (to) => Effect.flip(mailer.send(message(to))))
      expect(errors.map((e: MailError) => [e.failure, e.code, e.enhancedCode])).toEqual([
        ["permanent", 550, "5.1.1"],
        ["temporary", 451, "4.3.0"],
        ["permanent", 554, "5.7.1"]
      ])
      expect(errors[0]!.message).toContain("User unknown")
      expect(yield* sendAll(mailer, ["fine@example.org"])).toEqual(["sent"])
    }))

  it.scopedLive("a slow server is slow, not a failure: every mail arrives once", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking, replyDelayMs: 30 })
      const mailer = yield* Effect.map(Layer.build(SmtpMailer({ url: server.url, maxConnections: 2 })), Context.get(Mailer))
      const addresses = Array.from({ length: 12 }, (_, i) => `u${i}@example.org`)
      const outcomes = yield* Effect.forEach(addresses, (to) => Effect.either(mailer.send(message(to))), { concurrency: 12 })
      expect(outcomes.every(Either.isRight)).toBe(true)
      expect([...server.counts().values()]).toEqual(addresses.map(() => 1))
    }))
})

describe("SmtpMailer bulk path", () => {
  it.scopedLive("layout mails go by BDAT once the server is known to offer CHUNKING", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ chunking: true })
      const mailer = yield* mailerOn(server)
      const send = mailer.prepare!({ html: ["<p>Hi ", 0, "</p>\n.<p>dot line</p>"], text: ["Hi ", 0, "\n.dot line"] })
      for (const name of ["Ana", "Bo", "Cy"]) yield* send({ ...message(`${name.toLowerCase()}@example.org`), values: [name] })
      // the first mail is written before any connection said what it offers: it may go by DATA
      expect(server.received.slice(1).map((m) => m.chunked)).toEqual([true, true])
      expect(server.received[2]!.raw).toContain("\r\n.<p>dot line</p>")
    }))
})

describe("SmtpMailer connection trouble", () => {
  it.scopedLive("a server that refuses every connection fails mails as temporary; back up, the next mail goes through", () =>
    Effect.gen(function*() {
      const server = yield* faulty({ down: true })
      const mailer = yield* mailerOn(server)
      expect(yield* sendAll(mailer, ["a@example.org", "b@example.org"])).toEqual(["temporary", "temporary"])
      server.settings.down = false
      expect(yield* sendAll(mailer, ["c@example.org"])).toEqual(["sent"])
    }))

  it.scopedLive("a missing greeting times out naming the greeting timeout", () =>
    Effect.gen(function*() {
      const silent = createServer(() => undefined)
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))),
        () => Effect.promise(() => new Promise<void>((resolve) => silent.close(() => resolve())))
      )
      const port = (silent.address() as { port: number }).port
      const mailer = yield* Effect.map(
        Layer.build(SmtpMailer({ url: `smtp://127.0.0.1:${port}?greetingTimeout=200&socketTimeout=5000` })),
        Context.get(Mailer)
      )
      const error = yield* Effect.flip(mailer.send(message("a@example.org")))
      expect(error.failure).toBe("temporary")
      expect(error.message).toContain("No greeting from the SMTP server within 200 ms")
    }), { timeout: 10_000 })
})
