import { Duration, Effect, Option } from "effect"
import { Mailer } from "../ports/Mailer.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import { type DeliveryOutcome, deliveryOutcome } from "../sending/deliveryOutcome.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { skippedOutcome } from "../sending/skippedSend.js"
import { DeliveryOptions } from "../usecases/DeliveryOptions.js"
import { now } from "../usecases/now.js"
import { makeQueueDelivery } from "../usecases/QueueDelivery.js"
import { UrlSigner } from "../usecases/UrlSigner.js"
import { recipientEmails } from "./MailAddressList.js"
import type { TransactionalMail } from "./TransactionalMail.js"
import { type ClaimedTransactionalSend, TransactionalMailRepository } from "./TransactionalMailRepository.js"
import { sendMessageId, trackedLinks, transactionalMessage } from "./transactionalMessage.js"
import { TransactionalWakeup } from "./TransactionalWakeup.js"

/**
 * Whether the mail has one recipient: only then does an SMTP refusal say which address bounced. A mail to several is
 * refused whole (nobody gets it) and its failure reason names the address, but no one is suppressed on a guess.
 */
const singleRecipient = (mail: TransactionalMail): boolean => recipientEmails(mail).length === 1

/** A claimed send with its mail (none when the mail is gone) and its recipients suppressed since it was accepted. */
interface Claimed {
  readonly send: ClaimedTransactionalSend
  readonly mail: Option.Option<TransactionalMail>
  readonly suppressed: ReadonlyArray<string>
}

/** The outcome of one claimed send. */
interface Outcome extends DeliveryOutcome {
  readonly claimed: Claimed
}

/**
 * Delivers transactional mails: its own loop beside campaign delivery (so a password reset never waits for a campaign
 * slice), woken at once when this process queues a mail and polling for the others. Sends are claimed under a lease
 * and recorded through the same pump, outcomes and retry rules as campaign mails (at most `concurrency` handed over
 * and not recorded: the crash bound; an unknown outcome is never sent again); permanent refusals of a mail to one
 * address go through the one bounce policy. A mail sent with `store: false` is deleted once its send is finished.
 */
export class TransactionalDelivery extends Effect.Service<TransactionalDelivery>()("@mailroom/TransactionalDelivery", {
  effect: Effect.gen(function*() {
    const mails = yield* TransactionalMailRepository
    const suppressions = yield* SuppressionRepository
    const sends = yield* SendRepository
    const bounces = yield* BouncePolicy
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const links = yield* PublicLinks
    const identity = yield* MailIdentity
    const options = yield* DeliveryOptions
    const wakeup = yield* TransactionalWakeup
    const problems = makeDeliveryProblems()
    const retryForMillis = Duration.toMillis(options.retryFor)

    /** Mails one claimed send; its outcome (never fails: transport errors become outcomes). */
    const deliverOne = (claimed: Claimed): Effect.Effect<Outcome> =>
      Effect.gen(function*() {
        const { send } = claimed
        if (Option.isNone(claimed.mail)) return { claimed, ...skippedOutcome(send.id, "The mail was deleted before it went out.") }
        if (claimed.suppressed.length > 0) {
          return { claimed, ...skippedOutcome(send.id, `Suppressed before the mail went out: ${claimed.suppressed.join(", ")}.`) }
        }
        const mail = claimed.mail.value
        const signatures = yield* signer.signSend(send.uuid)
        const linkTokens = yield* signer.linkTokens(trackedLinks(mail))
        const messageId = sendMessageId(mail, send.uuid)
        const message = transactionalMessage(mail, { sendUuid: send.uuid, signatures }, {
          links,
          linkTokens,
          messageId,
          bounceAddress: identity.bounceAddress
        })
        const error = yield* mailer.send(message).pipe(Effect.flip, Effect.option, Effect.map(Option.getOrNull))
        if (error !== null) yield* problems.note(`transactional mail ${mail.uuid}`, error.failure, error.message)
        const outcome = deliveryOutcome(send, error, yield* now, retryForMillis)
        const result = outcome.result._tag === "Sent" ? { ...outcome.result, transportMessageId: messageId } : outcome.result
        return { claimed, bounce: outcome.bounce, result }
      })

    /** Records outcomes (with what the bounce policy does about bounces), then forgets delivered unstored mails. */
    const record = (outcomes: ReadonlyArray<Outcome>) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* sends.record(outcomes.map((o) => o.result), at)
        yield* bounces.applyAll(outcomes.flatMap(({ bounce, claimed }) =>
          bounce === null || Option.isNone(claimed.mail) || !singleRecipient(claimed.mail.value) ? [] : [{
            email: recipientEmails(claimed.mail.value)[0]!,
            type: bounce,
            send: { id: claimed.send.id, campaignId: null, subscriberId: null, transactionalMailId: claimed.send.mailId },
            at
          }]
        ))
        const finished = outcomes.filter((o) => o.result._tag !== "Retry" && Option.isSome(o.claimed.mail) && !o.claimed.mail.value.stored)
        if (finished.length > 0) yield* mails.forgetDelivered(finished.map((o) => o.claimed.send.mailId))
      })

    /** Claims due sends with their mails and the recipients suppressed while they waited (a bounce elsewhere, a retry). */
    const claim = (lease: Parameters<typeof mails.claim>[0]) =>
      Effect.gen(function*() {
        const claimed = yield* mails.claim(lease)
        if (claimed.length === 0) return []
        const found = yield* mails.findByIds([...new Set(claimed.map((send) => send.mailId))])
        const byId = new Map(found.map((mail) => [mail.id as number, mail]))
        const suppressed = yield* suppressions.suppressedAmong(found.flatMap(recipientEmails))
        return claimed.map((send): Claimed => {
          const mail = Option.fromNullable(byId.get(send.mailId))
          const blocked = Option.match(mail, { onNone: () => [], onSome: (m) => recipientEmails(m).filter((email) => suppressed.has(email)) })
          return { send, mail, suppressed: blocked }
        })
      })

    return yield* makeQueueDelivery({
      name: "TransactionalDelivery",
      kind: "transactional",
      loop: "Transactional delivery",
      recording: "Recording transactional deliveries",
      claim,
      deliver: deliverOne,
      record,
      wakeup
    })
  })
}) {}
