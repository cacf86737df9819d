import { createServer } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Mailer, type MailMessage } from "@mailroom/core"
import { SmtpMailer } from "@mailroom/smtp"
import { Cause, Context, Effect, Exit, Layer } from "effect"
import { htmlToText } from "@mailroom/core"
import { mimeParts, parseEml } from "./eml.js"
import { smtpSink } from "./SmtpSink.js"

const message: MailMessage = {
  from: { email: "news@example.com", name: "Mailroom News" },
  to: { email: "ana@example.org", name: "Ana Lima" },
  replyTo: { email: "support@example.com" },
  subject: "Hello from Mailroom",
  html: "<p>Hello <b>Ana</b>, see <a href=\"https://example.com/offer\">the offer</a>.</p>",
  headers: { "List-Unsubscribe": "<https://example.com/u/abc>", "X-Campaign-Id": "42" }
}

const send = (url: string, m: MailMessage = message) =>
  Effect.flatMap(Mailer, (mailer) => mailer.send(m)).pipe(Effect.provide(SmtpMailer({ url })))

/** Builds the layer in the test's scope (`Effect.provide(Mailer, layer)` would close the pool right after the lookup). */
const mailerIn = (layer: Layer.Layer<Mailer>) => Effect.map(Layer.build(layer), Context.get(Mailer))

const closedPort = Effect.promise(() =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))))
    })
  })
)

describe("SmtpMailer", () => {
  it.scopedLive("delivers From, To, Reply-To, Subject, HTML, a text fallback and custom headers", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      yield* send(sink.url)
      const [mail] = yield* Effect.promise(() => sink.waitFor(1))
      expect(mail?.from).toBe("news@example.com")
      expect(mail?.to).toEqual(["ana@example.org"])
      const { body, headers } = parseEml(mail!.raw)
      expect(headers.get("from")).toBe("Mailroom News <news@example.com>")
      expect(headers.get("to")).toBe("Ana Lima <ana@example.org>")
      expect(headers.get("reply-to")).toBe("support@example.com")
      expect(headers.get("subject")).toBe("Hello from Mailroom")
      expect(headers.get("list-unsubscribe")).toBe("<https://example.com/u/abc>")
      expect(headers.get("x-campaign-id")).toBe("42")
      const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1]
      expect(headers.get("content-type")).toMatch(/^multipart\/alternative/)
      const parts = mimeParts(body, boundary!)
      expect(parts.map((p) => p.headers.get("content-type"))).toEqual([
        "text/plain; charset=utf-8",
        "text/html; charset=utf-8"
      ])
      expect(parts[0]?.body.trim()).toBe("Hello Ana, see the offer (https://example.com/offer).")
      expect(parts[1]?.body.trim()).toBe(message.html)
    }))

  it.scopedLive("sends the given text part, non-ASCII subjects and many mails over one pool", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url, maxConnections: 2 }))
      yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        (i) => mailer.send({ ...message, to: { email: `r${i}@example.org` }, subject: `Olá ${i} 🎉`, text: `plain ${i}` }),
        { concurrency: 10 }
      )
      const received = yield* Effect.promise(() => sink.waitFor(20))
      expect(received.flatMap((m) => m.to).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}@example.org`).sort())
      const first = received.find((m) => m.to[0] === "r0@example.org")!
      expect(parseEml(first.raw).headers.get("subject")).toMatch(/^=\?UTF-8\?/i)
      expect(first.raw).toContain("plain 0")
    }))

  it.scopedLive("a 550 answer is a permanent MailError carrying the SMTP response", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      sink.failNext(550, 1, "5.1.1 No such user")
      const error = yield* Effect.flip(send(sink.url))
      expect(error._tag).toBe("MailError")
      expect(error.permanent).toBe(true)
      expect(error.message).toContain("550 5.1.1 No such user")
      expect(sink.received).toHaveLength(0)
      expect(sink.rejected).toBe(1)
    }))

  it.scopedLive("a 451 answer is a temporary MailError, and a retry gets through", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      sink.failNext(451, 2)
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url }))
      const first = yield* Effect.flip(mailer.send(message))
      expect(first.permanent).toBe(false)
      expect(first.message).toContain("451 4.7.1 Try again later")
      expect((yield* Effect.flip(mailer.send(message))).permanent).toBe(false)
      yield* mailer.send(message)
      expect(sink.rejected).toBe(2)
      expect(sink.received).toHaveLength(1)
    }))

  it.scopedLive("sends the HTML unchanged and the text readable, also with lines that start with a dot", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const html = "<p>Olá 😀</p>\n.\n..two dots\n" + "<p>long line</p>".repeat(500)
      yield* send(sink.url, { ...message, html, text: "first\n.\n.. dots\nlast" })
      const [mail] = yield* Effect.promise(() => sink.waitFor(1))
      const { body, headers } = parseEml(mail!.raw)
      const parts = mimeParts(body, /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")![1]!)
      expect(parts[1]?.body).toBe(html)
      expect(parts[0]?.headers.get("content-transfer-encoding")).toBe("7bit")
      expect(parts[0]?.body).toBe("first\n.\n.. dots\nlast\n")
    }))

  it.scopedLive("a message that cannot be written is a permanent MailError, and nothing is sent", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const error = yield* Effect.flip(send(sink.url, { ...message, to: { email: "ana@example.org\r\nRCPT TO:<x@example.net>" } }))
      expect(error.permanent).toBe(true)
      expect(error.message).toMatch(/^Invalid message: Invalid To address/)
      expect(sink.received).toHaveLength(0)
    }))

  it.live("connection refused is a temporary MailError", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const error = yield* Effect.flip(send(`smtp://127.0.0.1:${port}`))
      expect(error.permanent).toBe(false)
      expect(error.message).toContain("ECONNREFUSED")
    }))

  it.live("a URL that is not smtp:// or smtps:// is a defect when the layer is built", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(send("http://127.0.0.1:25"))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))
})

describe("htmlToText", () => {
  it("turns blocks into lines, keeps link targets and decodes entities", () => {
    const html = "<html><head><style>p{}</style><title>T</title></head><body>\n<h1>Big  news</h1>\n" +
      "<p>Fish &amp; chips&nbsp;&#8212; &lt;today&gt;<br>only</p><ul><li>one</li><li>two</li></ul>" +
      "<p><a href=\"https://x.test/u\">https://x.test/u</a> <a href=\"#top\">top</a></p><!-- note --></body></html>"
    expect(htmlToText(html)).toBe("Big news\n\nFish & chips — <today>\nonly\n\n- one\n- two\n\nhttps://x.test/u top")
  })
})

describe("SmtpMailer bulk path", () => {
  it.scopedLive("sends mails of a prepared layout that decode to the filled layout", () =>
    Effect.gen(function*() {
      const sink = yield* smtpSink
      const mailer = yield* mailerIn(SmtpMailer({ url: sink.url }))
      const layout = { html: ["<p>Hello ", 0, "</p><a href=\"", 1, "\">more</a>"], text: ["Hello ", 0, "\nmore (", 1, ")"] }
      const send = mailer.prepare!(layout)
      yield* Effect.forEach(["Ana", "Zoë"], (name, i) =>
        send({ ...message, to: { email: `r${i}@example.org` }, values: [name, `https://x.test/${i}`] }))
      const received = yield* Effect.promise(() => sink.waitFor(2))
      const zoe = received.find((m) => m.to[0] === "r1@example.org")!
      const { body, headers } = parseEml(zoe.raw)
      const parts = mimeParts(body, /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")![1]!)
      expect(parts[0]?.body.trim()).toBe("Hello Zoë\nmore (https://x.test/1)")
      expect(parts[1]?.body.trim()).toBe("<p>Hello Zoë</p><a href=\"https://x.test/1\">more</a>")
      expect(headers.get("list-unsubscribe")).toBe("<https://example.com/u/abc>")
    }))
})
