/**
 * A throw-away SMTP server for tests: it listens on 127.0.0.1 (random port), keeps every accepted message and can be
 * told to refuse the next messages with a chosen SMTP code (451 temporary, 550 permanent, …).
 *
 * Effect:  `const sink = yield* smtpSink` (scoped: closed with the scope), or `SmtpSink.layer` + `yield* SmtpSink`.
 * Promise: `const sink = await startSmtpSink()` … `await sink.close()`.
 * Then: `SmtpMailer({ url: sink.url })`, `sink.failNext(451, 2)`, `sink.refuseRecipient("x@example.org", 550)`,
 * `await sink.waitFor(3)`, `sink.received[0].raw`.
 *
 * Import it by relative path from other packages: `../../smtp/test/SmtpSink.js` (smtp-server is a dev dependency of @mailroom/smtp).
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { SMTPServer } from "smtp-server"

/** One message the sink accepted. */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM), "" for a null sender. */
  readonly from: string
  /** Envelope recipients (RCPT TO). */
  readonly to: ReadonlyArray<string>
  /** The whole message as sent after DATA: headers, blank line, MIME body. */
  readonly raw: string
}

/** A running sink. */
export interface SmtpSinkHandle {
  /** Port on 127.0.0.1. */
  readonly port: number
  /** `smtp://127.0.0.1:<port>`, ready for `SmtpMailer({ url })`. */
  readonly url: string
  /** Accepted messages in arrival order (a live view: it grows as mails arrive). */
  readonly received: ReadonlyArray<ReceivedMail>
  /** How many messages were refused because of `failNext`. */
  readonly rejected: number
  /** Answers `code` (4xx or 5xx) with `text` at the end of DATA for the next `count` messages (default 1); they are not kept. */
  readonly failNext: (code: number, count?: number, text?: string) => void
  /** Answers `code` (4xx or 5xx) with `text` to every RCPT TO of `address` (compared without regard to case) until reset. */
  readonly refuseRecipient: (address: string, code: number, text?: string) => void
  /** Resolves with `received` once it holds at least `count` messages; rejects after `timeoutMs` (default 10 s). */
  readonly waitFor: (count: number, timeoutMs?: number) => Promise<ReadonlyArray<ReceivedMail>>
  /** Forgets received messages, pending failures, refused recipients and the rejected count. */
  readonly reset: () => void
  /** Stops the server (open client connections are cut after 500 ms). */
  readonly close: () => Promise<void>
}

interface Failure {
  readonly code: number
  readonly text: string
  remaining: number
}

const defaultText = (code: number) => (code >= 500 ? "5.7.1 Rejected by the test sink" : "4.7.1 Try again later (test sink)")

/** Starts a sink on 127.0.0.1 with a random port; call `close()` when done. */
export const startSmtpSink = async (): Promise<SmtpSinkHandle> => {
  const received: Array<ReceivedMail> = []
  const failures: Array<Failure> = []
  const refusedRecipients = new Map<string, { readonly code: number; readonly text: string }>()
  const waiters = new Set<() => void>()
  let rejected = 0

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onRcptTo(address, _session, callback) {
      const refusal = refusedRecipients.get(address.address.toLowerCase())
      if (refusal === undefined) return callback()
      callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }))
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("error", callback)
      stream.on("end", () => {
        const failure = failures[0]
        if (failure) {
          if (--failure.remaining <= 0) failures.shift()
          rejected++
          return callback(Object.assign(new Error(failure.text), { responseCode: failure.code }))
        }
        const { mailFrom, rcptTo } = session.envelope
        received.push({
          from: mailFrom ? mailFrom.address : "",
          to: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8")
        })
        callback(null)
        for (const wake of waiters) wake()
      })
    }
  })

  // A client that dies mid-message (a killed worker) surfaces as a server "error"; a sink must shrug it off.
  server.on("error", () => undefined)
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.server.off("error", reject)
      resolve()
    })
  })
  const address = server.server.address()
  if (address === null || typeof address === "string") throw new Error("SmtpSink: no TCP address")

  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    get rejected() {
      return rejected
    },
    failNext: (code, count = 1, text = defaultText(code)) => {
      if (!(code >= 400 && code < 600)) throw new Error(`SmtpSink.failNext: ${code} is not a 4xx or 5xx code`)
      if (count > 0) failures.push({ code, text, remaining: count })
    },
    refuseRecipient: (address, code, text = defaultText(code)) => {
      if (!(code >= 400 && code < 600)) throw new Error(`SmtpSink.refuseRecipient: ${code} is not a 4xx or 5xx code`)
      refusedRecipients.set(address.toLowerCase(), { code, text })
    },
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(received)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`SmtpSink.waitFor: ${received.length} of ${count} messages after ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    reset: () => {
      received.length = 0
      failures.length = 0
      refusedRecipients.clear()
      rejected = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The sink as a scoped resource: started on acquire, closed when the scope closes. */
export const smtpSink: Effect.Effect<SmtpSinkHandle, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(startSmtpSink),
  (sink) => Effect.promise(sink.close)
)

/** The sink as a service, for `layer(SmtpSink.layer)(…)` blocks or `Layer.provide`. */
export class SmtpSink extends Context.Tag("@mailroom/smtp/test/SmtpSink")<SmtpSink, SmtpSinkHandle>() {
  /** Starts one sink for the layer's lifetime. */
  static readonly layer: Layer.Layer<SmtpSink> = Layer.scoped(SmtpSink, smtpSink)
}
