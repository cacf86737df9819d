import { randomBytes } from "node:crypto"
import { mkdir, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Mailer, MailError } from "@mailroom/core"
import { Clock, Effect, Layer } from "effect"
import { buildMime, writeMime } from "./internal/mime.js"

/** Options of the .eml outbox. */
export interface OutboxMailerOptions {
  /** Folder the .eml files are written to (created when missing), e.g. `./data/outbox`. */
  readonly directory: string
}

const fileStamp = (millis: number): string => new Date(millis).toISOString().replace(/[-:]/g, "").replace(".", "")

const failure = (what: string) => (error: unknown) =>
  new MailError({ message: `${what}: ${error instanceof Error ? error.message : String(error)}`, failure: "temporary" })

/** A Mailer that writes each message (the same bytes SmtpMailer sends) as a complete MIME file `<directory>/<timestamp>-<random>.eml` (written to a temp name, then renamed). */
export const OutboxMailer = (options: OutboxMailerOptions): Layer.Layer<Mailer> =>
  Layer.succeed(
    Mailer,
    Mailer.of({
      send: (message) =>
        Effect.gen(function*() {
          const mail = yield* writeMime(() => buildMime(message))
          const now = yield* Clock.currentTimeMillis
          const name = `${fileStamp(now)}-${randomBytes(6).toString("hex")}.eml`
          const temp = join(options.directory, `.${name}.tmp`)
          yield* Effect.tryPromise({
            try: async () => {
              await mkdir(options.directory, { recursive: true })
              try {
                await writeFile(temp, mail.raw)
                await rename(temp, join(options.directory, name))
              } catch (error) {
                await rm(temp, { force: true })
                throw error
              }
            },
            catch: failure(`Could not write ${name} to ${options.directory}`)
          })
        }).pipe(Effect.withSpan("OutboxMailer.send"))
    })
  )
