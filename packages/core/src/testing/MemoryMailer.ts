import { Context, Effect, Layer, Ref } from "effect"
import { fillLayout } from "../domain/MailLayout.js"
import { MailError, Mailer, type MailMessage } from "../ports/Mailer.js"

/** The mails a MemoryMailer accepted, and a switch to make it fail like an SMTP server would. */
export class MemoryMailbox extends Context.Tag("@mailroom/MemoryMailbox")<MemoryMailbox, {
  readonly sent: Effect.Effect<ReadonlyArray<MailMessage>>
  /** Makes the next `count` sends fail (permanently for a 5xx-like failure). */
  readonly failNext: (count: number, permanent?: boolean) => Effect.Effect<void>
  readonly clear: Effect.Effect<void>
}>() {}

/**
 * A Mailer that keeps mails in memory (tests, embedding without SMTP), with its MemoryMailbox. It has the bulk path
 * too: a campaign mail sent through a prepared layout is kept as the whole message it stands for.
 */
export const MemoryMailer: Layer.Layer<Mailer | MemoryMailbox> = Layer.effectContext(
  Effect.gen(function*() {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const failures = yield* Ref.make<{ readonly count: number; readonly permanent: boolean }>({ count: 0, permanent: false })
    const send = (message: MailMessage) =>
      Effect.flatMap(
        Ref.modify(failures, (f) => [f, f.count > 0 ? { ...f, count: f.count - 1 } : f]),
        (f) =>
          f.count > 0
            ? Effect.fail(new MailError({ message: f.permanent ? "550 Mailbox unavailable" : "451 Try again later", permanent: f.permanent }))
            : Ref.update(sent, (mails) => [...mails, message])
      )
    return Context.empty().pipe(
      Context.add(Mailer, Mailer.of({
        send,
        prepare: (layout) => ({ values, ...mail }) =>
          send({ ...mail, html: fillLayout(layout.html, values), text: fillLayout(layout.text, values) })
      })),
      Context.add(MemoryMailbox, MemoryMailbox.of({
        sent: Ref.get(sent),
        failNext: (count, permanent = false) => Ref.set(failures, { count, permanent }),
        clear: Ref.set(sent, [])
      }))
    )
  })
)
