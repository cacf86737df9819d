import { Effect, Option, Schema } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { newUuid } from "../domain/Ids.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileMail } from "../sending/CompiledMail.js"
import type { Recipient } from "../sending/mailScope.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { UrlSigner } from "../usecases/UrlSigner.js"
import { AutomationMailId } from "./AutomationIds.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"

const Payload = Schema.Struct({ automationMailId: AutomationMailId, emails: Schema.Array(Schema.String) })

/** Who a test mail is for when no list has a subscriber with its address: sample values. */
const sample = (email: string): Recipient => ({
  uuid: "00000000-0000-4000-8000-000000000000",
  email,
  firstName: "Jane",
  lastName: "Doe",
  extraAttributes: {}
})

/**
 * Test mails of an automation mail: real mails with its headers (open pixel, List-Unsubscribe), a `[Test] ` subject,
 * personalised from a subscriber with that address (and that subscriber's list) or sample values. Each has its own
 * signed id with no send behind it: nothing is counted, its unsubscribe link opens a preview, and its links are left
 * as written (tracked links name a send's mail).
 */
export class AutomationMailTestMails extends Effect.Service<AutomationMailTestMails>()("@mailroom/AutomationMailTestMails", {
  effect: Effect.gen(function*() {
    const mails = yield* AutomationMailRepository
    const lists = yield* EmailListRepository
    const subscribers = yield* SubscriberRepository
    const signer = yield* UrlSigner
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity

    /** Sends the test mails of a queued job (nothing when the mail is gone). */
    const deliver = Effect.fn("AutomationMailTestMails.deliver")(function*(payload: unknown) {
      const { automationMailId, emails } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
      const found = yield* mails.findById(automationMailId)
      if (Option.isNone(found)) return
      const m = found.value
      const mailer = yield* Mailer
      for (const email of emails) {
        const subscriber = Option.fromNullable((yield* subscribers.findAllByEmail(normalizeEmail(email)))[0])
        const list = Option.isNone(subscriber) ? Option.none() : yield* lists.findById(subscriber.value.emailListId)
        const mail = yield* Effect.try(() =>
          compileMail({
            html: translateLegacy(m.emailHtml ?? m.html ?? ""),
            subject: `[Test] ${m.subject ?? m.name}`,
            campaign: { uuid: m.uuid, name: m.name },
            list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name }))),
            linkTokens: new Map(),
            trackOpens: m.trackOpens,
            utmTags: m.utmTags,
            listHeaders: true,
            identity
          }, publicLinks)
        ).pipe(Effect.orDie)
        const sendUuid = newUuid()
        const rendered = mail.render({
          sendUuid,
          signatures: yield* signer.signSend(sendUuid),
          recipient: Option.getOrElse(subscriber, (): Recipient => sample(email))
        })
        const defaults = Option.getOrNull(list)
        const fromEmail = m.fromEmail ?? defaults?.defaultFromEmail ?? email
        const replyTo = m.replyToEmail ?? defaults?.defaultReplyToEmail ?? null
        yield* mailer.send({
          from: { email: fromEmail, name: m.fromName ?? defaults?.defaultFromName ?? null },
          to: { email, name: null },
          replyTo: replyTo === null ? null : { email: replyTo, name: m.replyToEmail === null ? defaults?.defaultReplyToName ?? null : m.replyToName },
          subject: rendered.subject,
          html: rendered.html,
          ...(rendered.text === undefined ? {} : { text: rendered.text }),
          headers: { ...rendered.headers, "X-Mailroom-Test": "true" },
          envelopeFrom: rendered.envelopeFrom
        })
      }
    })

    return { deliver } as const
  })
}) {}
