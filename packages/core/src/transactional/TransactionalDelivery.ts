import { Duration, Effect, Option } from "effect"
import { newUuid } from "../domain/Ids.js"
import { Mailer } from "../ports/Mailer.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import { type DeliveryOutcome, deliveryOutcome } from "../sending/deliveryOutcome.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { DeliveryOptions } from "../usecases/DeliveryOptions.js"
import { pump } from "../usecases/deliveryPump.js"
import { now } from "../usecases/now.js"
import { makeOutage, untilItWorks } from "../usecases/Outage.js"
import { pollForever } from "../usecases/pollForever.js"
import { sendLeases } from "../usecases/sendLeases.js"
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

/** How long a woken pump waits for more mails before it claims (a small share of a mail's latency). */
const GATHER = Duration.millis(20)

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
    const { withTransaction } = yield* Transactor
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const links = yield* PublicLinks
    const identity = yield* MailIdentity
    const options = yield* DeliveryOptions
    const wakeup = yield* TransactionalWakeup
    const owner = newUuid()
    const problems = makeDeliveryProblems()
    const storage = makeOutage("Recording transactional deliveries")
    const leaseMillis = Duration.toMillis(options.lease)
    const retryForMillis = Duration.toMillis(options.retryFor)

    /** Mails one claimed send; its outcome (never fails: transport errors become outcomes). */
    const deliverOne = (claimed: Claimed): Effect.Effect<Outcome> =>
      Effect.gen(function*() {
        const { send } = claimed
        if (Option.isNone(claimed.mail)) {
          return { claimed, result: { _tag: "Failed", id: send.id, reason: "The mail was deleted before it went out." }, bounce: null } as const
        }
        if (claimed.suppressed.length > 0) {
          const reason = `Suppressed before the mail went out: ${claimed.suppressed.join(", ")}.`
          return { claimed, result: { _tag: "Failed", id: send.id, reason }, bounce: null } as const
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
    const record = (outcomes: ReadonlyArray<Outcome>) => {
      const write = Effect.gen(function*() {
        const at = yield* now
        yield* sends.record(outcomes.map((o) => o.result), at)
        for (const { bounce, claimed } of outcomes) {
          if (bounce === null || Option.isNone(claimed.mail) || !singleRecipient(claimed.mail.value)) continue
          yield* bounces.apply({
            email: recipientEmails(claimed.mail.value)[0]!,
            type: bounce,
            send: { id: claimed.send.id, campaignId: null, subscriberId: null, transactionalMailId: claimed.send.mailId },
            at
          })
        }
        const finished = outcomes.filter((o) => o.result._tag !== "Retry" && Option.isSome(o.claimed.mail) && !o.claimed.mail.value.stored)
        if (finished.length > 0) yield* mails.forgetDelivered(finished.map((o) => o.claimed.send.mailId))
      })
      return untilItWorks(withTransaction(write), storage)
    }

    /**
     * The next claimed sends with their mails, up to `room`. When nothing is due: none, or with `wait` the next ones
     * once this process queues a mail or the poll interval has passed (so one pump keeps running while mails come).
     */
    const claim = (room: number, wait: boolean) =>
      Effect.gen(function*() {
        for (;;) {
          const at = yield* now
          const claimed = yield* mails.claim({ now: at, leaseUntil: new Date(at.getTime() + leaseMillis), limit: room, owner })
          if (claimed.length > 0) {
            const found = yield* mails.findByIds([...new Set(claimed.map((send) => send.mailId))])
            const byId = new Map(found.map((mail) => [mail.id as number, mail]))
            // an address suppressed while its mail waited (a bounce elsewhere, a retry) is not mailed
            const suppressed = yield* suppressions.suppressedAmong(found.flatMap(recipientEmails))
            yield* storage.ok
            return Option.some(claimed.map((send): Claimed => {
              const mail = Option.fromNullable(byId.get(send.mailId))
              const blocked = Option.match(mail, { onNone: () => [], onSome: (m) => recipientEmails(m).filter((email) => suppressed.has(email)) })
              return { send, mail, suppressed: blocked }
            }))
          }
          if (!wait) return Option.none<ReadonlyArray<Claimed>>()
          yield* wakeup.wait(options.pollInterval)
          // a moment for the mails accepted meanwhile, so that a busy API makes batches, not one claim per mail
          yield* Effect.sleep(GATHER)
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.as(storage.failed(cause), Option.none<ReadonlyArray<Claimed>>())))

    /** Delivers due sends until none is left (or, with `wait`, for as long as it runs); how many it recorded. */
    const deliver = (wait: boolean) =>
      Effect.map(pump({
        concurrency: options.concurrency,
        batchSize: options.batchSize,
        claim: (room) => claim(room, wait),
        deliver: deliverOne,
        record,
        recordLinger: options.recordLinger,
        ...sendLeases<Claimed>(sends, { owner, leaseMillis, storage }),
        stopped: () => false,
        watch: Effect.succeed(false),
        watchEvery: options.pollInterval
      }), (result) => result.recorded)

    /** Delivers every due transactional send; how many outcomes it recorded. */
    const deliverDue = Effect.fn("TransactionalDelivery.deliverDue")(function*() {
      return yield* deliver(false)
    })

    /** Delivers until nothing is due (tests, one-shot tools); how many outcomes were recorded. */
    const drain = Effect.fn("TransactionalDelivery.drain")(function*() {
      let total = 0
      for (let recorded = yield* deliverDue(); recorded > 0; recorded = yield* deliverDue()) total += recorded
      return total
    })

    /**
     * Delivers forever with one long-lived pump: at once when this process queues a mail, else at every poll interval
     * (a pump stopped by a storage failure starts again after a pause); the server forks it, `mailroom worker` runs it.
     */
    const run = pollForever("Transactional delivery", Effect.as(deliver(true), options.pollInterval), options.pollInterval)

    return { deliverDue, drain, run } as const
  })
}) {}
