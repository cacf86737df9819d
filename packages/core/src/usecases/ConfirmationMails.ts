import { Effect, Option, Schema } from "effect"
import type { EmailList } from "../domain/EmailList.js"
import { SubscriberId } from "../domain/Ids.js"
import type { Subscriber } from "../domain/Subscriber.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { JobQueue } from "../ports/JobQueue.js"
import { Mailer, type MailMessage } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { AppUrl } from "./AppUrl.js"
import { now } from "./now.js"
import { escapeHtml } from "../domain/Html.js"

/** Job kind of a confirmation mail. */
export const CONFIRMATION_MAIL = "confirmation-mail"

const Payload = Schema.Struct({ subscriberId: SubscriberId })

/** The confirmation link of a subscriber: opening it confirms the address. */
export const confirmationUrl = (appUrl: string, subscriber: Subscriber): string => `${appUrl}/confirm/${subscriber.uuid}`

/** The double opt-in mail: who it is from, the list's name and the confirmation link. */
export const confirmationMessage = (list: EmailList, subscriber: Subscriber, appUrl: string): MailMessage => {
  const url = confirmationUrl(appUrl, subscriber)
  const name = escapeHtml(list.name)
  return {
    from: { email: list.defaultFromEmail, name: list.defaultFromName },
    to: { email: subscriber.email, name: [subscriber.firstName, subscriber.lastName].filter(Boolean).join(" ") || null },
    replyTo: list.defaultReplyToEmail === null ? null : { email: list.defaultReplyToEmail, name: list.defaultReplyToName },
    subject: `Confirm your subscription to ${list.name}`,
    html: `<!doctype html><html><body style="font-family:sans-serif">` +
      `<p>Hello${subscriber.firstName ? ` ${escapeHtml(subscriber.firstName)}` : ""},</p>` +
      `<p>Please confirm that you want to receive mail from <strong>${name}</strong>.</p>` +
      `<p><a href="${url}">Confirm my subscription</a></p>` +
      `<p>If you did not ask for this, ignore this mail and you will not hear from us again.</p></body></html>`,
    text: `Please confirm that you want to receive mail from ${list.name}:\n\n${url}\n\n` +
      `If you did not ask for this, ignore this mail and you will not hear from us again.\n`
  }
}

/** Double opt-in mails: queued durably with the change that needs them, delivered by the job worker. */
export class ConfirmationMails extends Effect.Service<ConfirmationMails>()("@mailroom/ConfirmationMails", {
  effect: Effect.gen(function*() {
    const jobs = yield* JobQueue
    const subscribers = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const appUrl = yield* AppUrl

    /** Queues a confirmation mail for the subscriber (call inside the transaction that made it unconfirmed). */
    const request = Effect.fn("ConfirmationMails.request")(function*(subscriber: Subscriber) {
      yield* jobs.enqueue({ kind: CONFIRMATION_MAIL, payload: { subscriberId: subscriber.id }, runAt: yield* now })
    })

    /** Sends the mail of a queued job, unless the subscriber is gone or no longer unconfirmed. */
    const deliver = Effect.fn("ConfirmationMails.deliver")(function*(payload: unknown) {
      const { subscriberId } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
      const subscriber = yield* subscribers.findById(subscriberId)
      if (Option.isNone(subscriber) || subscriberStatus(subscriber.value) !== "unconfirmed") return
      const list = yield* lists.findById(subscriber.value.emailListId)
      if (Option.isNone(list)) return
      const mailer = yield* Mailer
      yield* mailer.send(confirmationMessage(list.value, subscriber.value, appUrl))
    })

    return { request, deliver } as const
  })
}) {}
