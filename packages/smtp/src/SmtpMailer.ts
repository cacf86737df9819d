import { Mailer, MailError } from "@mailroom/core"
import { Effect, Layer, Runtime } from "effect"
import { type DkimKey, makeDkimSigner } from "./Dkim.js"
import { messageBuffers } from "./internal/BufferPool.js"
import { ConnectionFailureLog } from "./internal/ConnectionFailureLog.js"
import { buildLayoutMime, prepareLayout } from "./internal/LayoutMime.js"
import { buildMime, type RawMail, writeMime } from "./internal/mime.js"
import { SmtpError } from "./internal/SmtpConnection.js"
import { SmtpPool } from "./internal/SmtpPool.js"
import { parseSmtpUrl } from "./internal/SmtpSettings.js"

/** Options of the pooled SMTP transport. */
export interface SmtpMailerOptions {
  /**
   * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`; query options `requireTLS`,
   * `ignoreTLS`, `tls.rejectUnauthorized=false`, `name` (EHLO name), `connectionTimeout`, `socketTimeout` (ms).
   */
  readonly url: string
  /** Parallel SMTP connections (default 8); each carries any number of messages, one at a time. */
  readonly maxConnections?: number
  /** DKIM keys: every message is signed with each (two keys, RSA and Ed25519, sign it twice). */
  readonly dkim?: ReadonlyArray<DkimKey>
}

/**
 * An SMTP 5xx answer, or a message the server can never take, is permanent; a failure after the message was handed
 * over (the connection lost before the final reply) is unknown; anything else (4xx, network) is temporary.
 */
const toMailError = (error: unknown): MailError =>
  error instanceof SmtpError
    ? new MailError({
      message: error.maybeDelivered && !error.permanent && error.code === null
        ? `Outcome unknown: ${error.message} after the message was handed over`
        : error.message,
      failure: error.permanent ? "permanent" : error.maybeDelivered && error.code === null ? "unknown" : "temporary",
      code: error.code,
      enhancedCode: error.enhancedCode
    })
    : new MailError({ message: error instanceof Error ? error.message : String(error), failure: "temporary" })

/**
 * A Mailer over a pool of Mailroom's own SMTP connections (internal/SmtpConnection.ts), closed when the layer's
 * scope ends. A message is written in one pass by internal/mime.ts, a campaign's mails from its layout prepared once
 * (internal/LayoutMime.ts), and sent as bytes with MAIL FROM, RCPT TO and DATA pipelined (a mail to several
 * recipients waits for every RCPT TO answer before its bytes go: all of them get it, or none). Callers may send
 * concurrently (64 in flight is the delivery default); sends beyond the open connections wait in the pool's queue.
 */
export const SmtpMailer = (options: SmtpMailerOptions): Layer.Layer<Mailer> =>
  Layer.scoped(
    Mailer,
    Effect.gen(function*() {
      const settings = yield* Effect.try(() => parseSmtpUrl(options.url)).pipe(
        Effect.orDieWith((error) => new Error(`SmtpMailer: invalid SMTP URL (${String(error)})`))
      )
      const runtime = yield* Effect.runtime<never>()
      const failures = new ConnectionFailureLog()
      const destination = `${settings.host}:${settings.port}`
      const warn = (error: SmtpError) => {
        const line = failures.note(destination, error.message, Date.now())
        if (line !== null) Runtime.runFork(runtime, Effect.annotateLogs(Effect.logWarning(line), { smtp: destination }))
      }
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => new SmtpPool(settings, options.maxConnections ?? 8, warn)),
        (pool) => Effect.sync(() => pool.close())
      )
      const signer = options.dkim === undefined || options.dkim.length === 0
        ? null
        : yield* Effect.acquireRelease(
          Effect.try({ try: () => makeDkimSigner(options.dkim!), catch: (error) => error }).pipe(Effect.orDie),
          (signer) => Effect.promise(() => signer.close())
        )
      // no span per mail: on the delivery path the tracing costs more than writing the message
      const transmit = (mail: RawMail) =>
        Effect.async<void, MailError>((resume) => {
          const bytes = signer === null ? Promise.resolve(mail.raw) : signer.sign(mail.raw).then((signed) => {
            // the signed message is a copy: the pooled buffer can serve the next mail
            if (mail.pooled === true) messageBuffers.release(mail.raw)
            return signed
          })
          bytes.then((raw) => pool.send(mail.envelope.from, mail.envelope.to, raw, mail.dotStuffed === true)).then(
            () => {
              // accepted: the server read every byte. After a failure the socket may still hold them, so that
              // buffer is left to the garbage collector rather than handed to the next mail.
              if (mail.pooled === true && signer === null) messageBuffers.release(mail.raw)
              resume(Effect.void)
            },
            (error) => resume(Effect.fail(toMailError(error)))
          )
        })
      return Mailer.of({
        send: (message) => Effect.flatMap(writeMime(() => buildMime(message)), transmit),
        prepare: (layout) => {
          const prepared = prepareLayout(layout)
          // with CHUNKING the bytes go as they are (BDAT), else dot-stuffed for DATA (either way is correct anywhere)
          // signed messages are signed as they are, and dot-stuffed when they are written; whether the server takes
          // BDAT is known once a connection is open, so it is asked for each mail
          return (mail) =>
            Effect.flatMap(
              writeMime(() => buildLayoutMime(prepared, mail, { dotStuff: pool.chunking !== true && signer === null })),
              transmit
            )
        }
      })
    })
  )
