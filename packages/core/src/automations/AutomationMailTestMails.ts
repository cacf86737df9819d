import { Effect, Option, Schema } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileContent } from "../sending/compileContent.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { sendTestMail } from "../usecases/sendTestMail.js"
import { UrlSigner } from "../usecases/UrlSigner.js"
import { AutomationMailId } from "./AutomationIds.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"
import { automationMailSender } from "./automationMailSender.js"

const Payload = Schema.Struct({ automationMailId: AutomationMailId, emails: Schema.Array(Schema.String) })

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
          compileContent(m, translateLegacy(m.emailHtml ?? m.html ?? ""), {
            list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name }))),
            linkTokens: new Map(),
            identity,
            publicLinks,
            subjectPrefix: "[Test] "
          })
        ).pipe(Effect.orDie)
        yield* sendTestMail({ mailer, signer }, mail, email, subscriber, automationMailSender(m, Option.getOrNull(list), email))
      }
    })

    return { deliver } as const
  })
}) {}
