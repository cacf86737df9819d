import { Effect, Option, Schema } from "effect"
import { SubscriberId } from "../domain/Ids.js"
import type { Subscriber } from "../domain/Subscriber.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { JobQueue } from "../ports/JobQueue.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileMail } from "../sending/CompiledMail.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { NO_SIGNATURES, PublicLinks } from "../sending/PublicLinks.js"
import { now } from "./now.js"
import { UrlSigner } from "./UrlSigner.js"

/** Job kind of a confirmation mail. */
export const CONFIRMATION_MAIL = "confirmation-mail"

const Payload = Schema.Struct({ subscriberId: SubscriberId })

/** The double opt-in mail, a template like any other mail's (`confirmUrl` is the subscriber's signed link). */
const CONFIRMATION_HTML = `<!doctype html><html><body style="font-family:sans-serif">` +
  `<p>Hello{% if subscriber.first_name != "" %} {{ subscriber.first_name }}{% endif %},</p>` +
  `<p>Please confirm that you want to receive mail from <strong>{{ list.name }}</strong>.</p>` +
  `<p><a href="{{ confirmUrl }}">Confirm my subscription</a></p>` +
  `<p>If you did not ask for this, ignore this mail and you will not hear from us again.</p></body></html>`

/** What the signature of a confirmation link signs: its purpose and the subscriber. */
export const confirmationSigned = (subscriberUuid: string): string => `confirm:${subscriberUuid}`

/** Double opt-in mails: queued durably with the change that needs them, delivered by the job worker. */
export class ConfirmationMails extends Effect.Service<ConfirmationMails>()("@mailroom/ConfirmationMails", {
  effect: Effect.gen(function*() {
    const jobs = yield* JobQueue
    const subscribers = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const signer = yield* UrlSigner
    const links = yield* PublicLinks
    const identity = yield* MailIdentity

    /** Queues a confirmation mail for the subscriber (call inside the transaction that made it unconfirmed). */
    const request = Effect.fn("ConfirmationMails.request")(function*(subscriber: Subscriber) {
      yield* jobs.enqueue({ kind: CONFIRMATION_MAIL, payload: { subscriberId: subscriber.id }, runAt: yield* now })
    })

    /** The subscriber's confirmation link: signed, so that it cannot be made up from the subscriber's uuid. */
    const url = (subscriber: Subscriber) =>
      Effect.map(signer.sign(confirmationSigned(subscriber.uuid)), (signature) => links.confirm(subscriber.uuid, signature))

    /** Sends the mail of a queued job, unless the subscriber is gone or no longer unconfirmed. */
    const deliver = Effect.fn("ConfirmationMails.deliver")(function*(payload: unknown) {
      const { subscriberId } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
      const subscriber = yield* subscribers.findById(subscriberId)
      if (Option.isNone(subscriber) || subscriberStatus(subscriber.value) !== "unconfirmed") return
      const list = yield* lists.findById(subscriber.value.emailListId)
      if (Option.isNone(list)) return
      const { value: l } = list
      const mail = compileMail({
        html: CONFIRMATION_HTML,
        subject: "Confirm your subscription to {{ list.name }}",
        campaign: null,
        list: { uuid: l.uuid, name: l.name },
        linkTokens: new Map(),
        trackOpens: false,
        utmTags: false,
        listHeaders: false,
        identity
      }, links)
      const rendered = mail.render({
        sendUuid: "",
        signatures: NO_SIGNATURES,
        recipient: subscriber.value,
        variables: { confirmUrl: yield* url(subscriber.value) }
      })
      const mailer = yield* Mailer
      yield* mailer.send({
        from: { email: l.defaultFromEmail, name: l.defaultFromName },
        to: { email: subscriber.value.email, name: [subscriber.value.firstName, subscriber.value.lastName].filter(Boolean).join(" ") || null },
        replyTo: l.defaultReplyToEmail === null ? null : { email: l.defaultReplyToEmail, name: l.defaultReplyToName },
        subject: rendered.subject,
        html: rendered.html,
        ...(rendered.text === undefined ? {} : { text: rendered.text }),
        headers: rendered.headers,
        envelopeFrom: rendered.envelopeFrom
      })
    })

    return { request, deliver, url } as const
  })
}) {}
