import { Duration, Effect, Option } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { entriesById } from "../domain/entriesById.js"
import { Mailer } from "../ports/Mailer.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import type { DeliveryOutcome } from "../sending/deliveryOutcome.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { skippedOutcome, subscriberSkipReason } from "../sending/skippedSend.js"
import { type BulkMail, compileBulkMail } from "../usecases/BulkMail.js"
import { deliverBulkSend } from "../usecases/deliverBulkSend.js"
import { DeliveryOptions } from "../usecases/DeliveryOptions.js"
import { now } from "../usecases/now.js"
import { makeQueueDelivery } from "../usecases/QueueDelivery.js"
import { suppressedSubscribers } from "../usecases/suppressedSubscribers.js"
import { UrlSigner } from "../usecases/UrlSigner.js"
import type { AutomationMailId } from "./AutomationIds.js"
import type { AutomationMail } from "./AutomationMail.js"
import { type AutomationSendList, type ClaimedAutomationSend, AutomationMailRepository } from "./AutomationMailRepository.js"
import { automationMailSender } from "./automationMailSender.js"
import { AutomationMailWakeup } from "./AutomationMailWakeup.js"

/** A claimed send with its mail (none when the mail is gone) and whether its address is suppressed. */
interface Claimed {
  readonly send: ClaimedAutomationSend
  readonly mail: Option.Option<AutomationMail>
  readonly suppressed: boolean
}

/** The outcome of one claimed send. */
interface Outcome extends DeliveryOutcome {
  readonly claimed: Claimed
}

/**
 * Delivers automation mails: pending sends with an automation mail (queued by the automation runner) are claimed in
 * batches under a lease, rendered from their mail compiled once per version (the transport's bulk layout path when it
 * has one), and recorded through the same pump, outcomes, retry rules and bounce policy as campaign mails (at most
 * `concurrency` handed over and not recorded: the crash bound; an unknown outcome is never sent again). A subscriber
 * unsubscribed or deleted, or an address suppressed, before the mail went out fails the send. Woken at once through
 * AutomationMailWakeup, else polling.
 */
export class AutomationMailDelivery extends Effect.Service<AutomationMailDelivery>()("@mailroom/AutomationMailDelivery", {
  effect: Effect.gen(function*() {
    const mails = yield* AutomationMailRepository
    const sends = yield* SendRepository
    const suppressions = yield* SuppressionRepository
    const bounces = yield* BouncePolicy
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity
    const options = yield* DeliveryOptions
    const wakeup = yield* AutomationMailWakeup
    const problems = makeDeliveryProblems()
    const delivery = { signer, mailer, retryForMillis: Duration.toMillis(options.retryFor) }
    const compiled = new Map<string, BulkMail>()
    /** The mails of recent claims by id, read again only when a claim shows a newer version. */
    const known = new Map<number, AutomationMail>()

    /** The mail compiled once per version and list (its links registered for click tracking); the reason when invalid. */
    const compile = (mail: AutomationMail, list: AutomationSendList | null): Effect.Effect<BulkMail, string> => {
      const key = `${mail.id}:${mail.updatedAt.getTime()}:${list?.id ?? 0}`
      const cached = compiled.get(key)
      return cached !== undefined ? Effect.succeed(cached) : Effect.map(
        compileBulkMail(mail, {
          list: list === null ? null : { uuid: list.uuid, name: list.name },
          ensureLinks: (urls) => mails.ensureLinks(mail.id, urls),
          signer,
          mailer,
          identity,
          publicLinks
        }),
        (result) => {
          // earlier versions of the mail are not sent again
          const version = `${mail.id}:${mail.updatedAt.getTime()}:`
          for (const old of compiled.keys()) if (old.startsWith(`${mail.id}:`) && !old.startsWith(version)) compiled.delete(old)
          compiled.set(key, result)
          return result
        }
      )
    }

    /** Mails one claimed send; its outcome (never fails: transport errors and broken content become outcomes). */
    const deliverOne = (claimed: Claimed): Effect.Effect<Outcome> =>
      Effect.suspend(() => {
        const { send } = claimed
        const skipped = (reason: string): Outcome => ({ claimed, ...skippedOutcome(send.id, reason) })
        const recipient = send.subscriber
        if (Option.isNone(claimed.mail)) return Effect.succeed(skipped("The automation mail was deleted before it went out."))
        const skip = subscriberSkipReason(recipient, claimed.suppressed)
        if (recipient === null || skip !== null) return Effect.succeed(skipped(skip!))
        const mail = claimed.mail.value
        const list = send.list
        return Effect.either(compile(mail, list)).pipe(
          Effect.flatMap((compiledOrProblem) => {
            if (compiledOrProblem._tag === "Left") {
              return Effect.succeed(skipped(`The automation mail is not a valid template: ${compiledOrProblem.left}`))
            }
            const { from, replyTo } = automationMailSender(mail, list, "")
            return deliverBulkSend(
              delivery,
              compiledOrProblem.right,
              { from, to: { email: recipient.email, name: null }, replyTo },
              send,
              recipient,
              (error) => problems.note(`automation mail ${mail.uuid}`, error.failure, error.message),
              (outcome): Outcome => ({ claimed, ...outcome })
            )
          })
        )
      })

    /** Records outcomes with what the bounce policy does about bounces, then counts the mails that went out. */
    const record = (outcomes: ReadonlyArray<Outcome>) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* sends.record(outcomes.map((o) => o.result), at)
        const sent = new Map<AutomationMailId, number>()
        for (const { claimed, result } of outcomes) {
          if (result._tag === "Sent") sent.set(claimed.send.mailId, (sent.get(claimed.send.mailId) ?? 0) + 1)
        }
        yield* bounces.applyAll(outcomes.flatMap(({ bounce, claimed }) =>
          bounce === null ? [] : [{
            email: normalizeEmail(claimed.send.email),
            type: bounce,
            send: {
              id: claimed.send.id,
              campaignId: null,
              automationMailId: claimed.send.mailId,
              subscriberId: claimed.send.subscriber?.id ?? null
            },
            at
          }]
        ))
        // the mails' counter rows last, in id order (after the lists' rows the bounces took)
        for (const [mailId, count] of entriesById(sent)) {
          yield* mails.addCounters(mailId, { sentToNumberOfSubscribers: count }, at)
        }
      })

    /** Claims due sends with their mails (read again only when newer) and whether their addresses are suppressed. */
    const claim = (lease: Parameters<typeof mails.claim>[0]) =>
      Effect.gen(function*() {
        const claimed = yield* mails.claim(lease)
        if (claimed.length === 0) return []
        const stale = [...new Set(claimed.flatMap((send) =>
          send.mailUpdatedAt === null || known.get(send.mailId)?.updatedAt.getTime() === send.mailUpdatedAt.getTime()
            ? []
            : [send.mailId]
        ))]
        if (stale.length > 0) for (const mail of yield* mails.findByIds(stale)) known.set(mail.id, mail)
        const suppressed = yield* suppressedSubscribers(suppressions, claimed)
        return claimed.map((send): Claimed => ({
          send,
          mail: send.mailUpdatedAt === null ? Option.none() : Option.fromNullable(known.get(send.mailId)),
          suppressed: suppressed(send)
        }))
      })

    return yield* makeQueueDelivery({
      name: "AutomationMailDelivery",
      kind: "automation",
      loop: "Automation mail delivery",
      recording: "Recording automation mail deliveries",
      claim,
      deliver: deliverOne,
      record,
      wakeup
    })
  })
}) {}
