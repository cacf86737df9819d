import { Context, Effect, Layer, Ref } from "effect"
import { fillLayout } from "../domain/MailLayout.js"
import { MailError, Mailer, type MailFailure, type MailMessage } from "../ports/Mailer.js"

/** The mails a MemoryMailer accepted, and a switch to make it fail like an SMTP server would. */
export class MemoryMailbox extends Context.Tag("@mailroom/MemoryMailbox")<MemoryMailbox, {
  readonly sent: Effect.Effect<ReadonlyArray<MailMessage>>
  /**
   * Makes the next `count` sends fail: `true` or "permanent" like an SMTP 550 5.1.1, `false` or "temporary" like a 451,
   * "unknown" like a connection lost after the message was handed over (the mail is kept: it may have arrived).
   */
  readonly failNext: (count: number, failure?: boolean | MailFailure) => Effect.Effect<void>
  readonly clear: Effect.Effect<void>
}>() {}

/** What each kind of failure looks like. */
const FAILURES: Record<MailFailure, MailError> = {
  permanent: new MailError({ message: "SMTP RCPT TO refused: 550 5.1.1 Mailbox unavailable", failure: "permanent", code: 550, enhancedCode: "5.1.1" }),
  temporary: new MailError({ message: "SMTP message refused: 451 4.3.0 Try again later", failure: "temporary", code: 451, enhancedCode: "4.3.0" }),
  unknown: new MailError({ message: "Outcome unknown: the connection was lost after the message was handed over", failure: "unknown" })
}

/**
 * A Mailer that keeps mails in memory (tests, embedding without SMTP), with its MemoryMailbox. It has the bulk path
 * too: a campaign mail sent through a prepared layout is kept as the whole message it stands for.
 */
export const MemoryMailer: Layer.Layer<Mailer | MemoryMailbox> = Layer.effectContext(
  Effect.gen(function*() {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const failures = yield* Ref.make<{ readonly count: number; readonly failure: MailFailure }>({ count: 0, failure: "temporary" })
    const send = (message: MailMessage) =>
      Effect.flatMap(
        Ref.modify(failures, (f) => [f, f.count > 0 ? { ...f, count: f.count - 1 } : f]),
        (f) => {
          const keep = Ref.update(sent, (mails) => [...mails, message])
          if (f.count === 0) return keep
          const error = FAILURES[f.failure]
          return f.failure === "unknown" ? Effect.zipRight(keep, Effect.fail(error)) : Effect.fail(error)
        }
      )
    return Context.empty().pipe(
      Context.add(Mailer, Mailer.of({
        send,
        prepare: (layout) => ({ values, ...mail }) =>
          send({ ...mail, html: fillLayout(layout.html, values), text: fillLayout(layout.text, values) })
      })),
      Context.add(MemoryMailbox, MemoryMailbox.of({
        sent: Ref.get(sent),
        failNext: (count, failure = false) =>
          Ref.set(failures, { count, failure: failure === true ? "permanent" : failure === false ? "temporary" : failure }),
        clear: Ref.set(sent, [])
      }))
    )
  })
)
