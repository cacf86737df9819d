import { Mailer, MailError } from "@mailroom/core"
import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"
import { toSendMailOptions } from "./internal/message.js"

/** Options of the pooled SMTP transport. */
export interface SmtpMailerOptions {
  /** Connection URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  readonly url: string
  /** Parallel SMTP connections (default 5). */
  readonly maxConnections?: number
}

interface SmtpFailure {
  readonly message?: unknown
  readonly response?: unknown
  readonly responseCode?: unknown
  readonly code?: unknown
}

/** Maps a nodemailer failure to MailError: an SMTP 5xx answer is permanent, anything else (4xx, network, timeout) is not. */
const toMailError = (error: unknown): MailError => {
  const failure: SmtpFailure = typeof error === "object" && error !== null ? error : { message: String(error) }
  const code = typeof failure.responseCode === "number" ? failure.responseCode : undefined
  const text = typeof failure.message === "string" && failure.message !== "" ? failure.message : "SMTP delivery failed"
  const response = typeof failure.response === "string" ? failure.response.trim() : ""
  const detail = typeof failure.code === "string" ? ` [${failure.code}]` : ""
  return new MailError({
    message: (response !== "" && !text.includes(response) ? `${text}: ${response}` : text) + detail,
    permanent: code !== undefined && code >= 500 && code < 600
  })
}

/** A Mailer on a pooled nodemailer SMTP transport, closed when the layer's scope ends. */
export const SmtpMailer = (options: SmtpMailerOptions): Layer.Layer<Mailer> =>
  Layer.scoped(
    Mailer,
    Effect.gen(function*() {
      if (!/^smtps?:\/\//i.test(options.url)) {
        return yield* Effect.dieMessage("SmtpMailer: the URL must start with smtp:// or smtps://")
      }
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({
            url: options.url,
            pool: true,
            maxConnections: options.maxConnections ?? 5,
            maxMessages: Infinity,
            connectionTimeout: 15_000,
            greetingTimeout: 15_000,
            socketTimeout: 30_000
          })
        ),
        (transport) => Effect.sync(() => transport.close())
      )
      return Mailer.of({
        send: (message) =>
          Effect.tryPromise({
            try: (signal) => transport.sendMail({ ...toSendMailOptions(message), signal }),
            catch: toMailError
          }).pipe(Effect.asVoid, Effect.withSpan("SmtpMailer.send"))
      })
    })
  )
