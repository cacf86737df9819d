import { Duration, Effect, Option } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { newUuid } from "../domain/Ids.js"
import { type LayoutMail, type MailError, Mailer } from "../ports/Mailer.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { compileMail, type CompiledMail } from "../sending/CompiledMail.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import { type DeliveryOutcome, deliveryOutcome } from "../sending/deliveryOutcome.js"
import { trackableLinks } from "../sending/links.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { DeliveryOptions } from "../usecases/DeliveryOptions.js"
import { pump } from "../usecases/deliveryPump.js"
import { now } from "../usecases/now.js"
import { makeOutage, untilItWorks } from "../usecases/Outage.js"
import { pollForever } from "../usecases/pollForever.js"
import { sendLeases } from "../usecases/sendLeases.js"
import { UrlSigner } from "../usecases/UrlSigner.js"
import type { AutomationMailId } from "./AutomationIds.js"
import type { AutomationMail } from "./AutomationMail.js"
import { type AutomationSendList, type ClaimedAutomationSend, AutomationMailRepository } from "./AutomationMailRepository.js"
import { AutomationMailWakeup } from "./AutomationMailWakeup.js"

/** How long a woken pump waits for more sends before it claims (the runner queues them in batches). */
const GATHER = Duration.millis(20)

/** A mail compiled once per version and list, with the transport's prepared sender for its layout (the bulk path). */
interface Compiled {
  readonly mail: CompiledMail
  readonly sendLayout: ((mail: LayoutMail) => Effect.Effect<void, MailError>) | null
}

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
    const { withTransaction } = yield* Transactor
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity
    const options = yield* DeliveryOptions
    const wakeup = yield* AutomationMailWakeup
    const owner = newUuid()
    const problems = makeDeliveryProblems()
    const storage = makeOutage("Recording automation mail deliveries")
    const leaseMillis = Duration.toMillis(options.lease)
    const retryForMillis = Duration.toMillis(options.retryFor)
    const compiled = new Map<string, Compiled>()
    /** The mails of recent claims by id, read again only when a claim shows a newer version. */
    const known = new Map<number, AutomationMail>()

    /** The mail compiled once per version and list (its links registered for click tracking); the reason when invalid. */
    const compile = (mail: AutomationMail, list: AutomationSendList | null): Effect.Effect<Compiled, string> => {
      const key = `${mail.id}:${mail.updatedAt.getTime()}:${list?.id ?? 0}`
      const cached = compiled.get(key)
      return cached !== undefined ? Effect.succeed(cached) : Effect.gen(function*() {
        const html = translateLegacy(mail.emailHtml ?? mail.html ?? "")
        const tracked = mail.trackClicks ? yield* mails.ensureLinks(mail.id, trackableLinks(html)) : []
        const linkTokens = yield* signer.linkTokens(tracked)
        const compiledMail = yield* Effect.try({
          try: () =>
            compileMail({
              html,
              subject: mail.subject ?? mail.name,
              campaign: { uuid: mail.uuid, name: mail.name },
              list: list === null ? null : { uuid: list.uuid, name: list.name },
              linkTokens,
              trackOpens: mail.trackOpens,
              utmTags: mail.utmTags,
              listHeaders: true,
              identity
            }, publicLinks),
          catch: (error) => (error instanceof Error ? error.message.split("\n")[0]! : String(error))
        })
        const result: Compiled = {
          mail: compiledMail,
          sendLayout: compiledMail.layout === null || mailer.prepare === undefined ? null : mailer.prepare(compiledMail.layout)
        }
        // earlier versions of the mail are not sent again
        const version = `${mail.id}:${mail.updatedAt.getTime()}:`
        for (const old of compiled.keys()) if (old.startsWith(`${mail.id}:`) && !old.startsWith(version)) compiled.delete(old)
        compiled.set(key, result)
        return result
      })
    }

    /** Mails one claimed send; its outcome (never fails: transport errors and broken content become outcomes). */
    const deliverOne = (claimed: Claimed): Effect.Effect<Outcome> =>
      Effect.suspend(() => {
        const { send } = claimed
        const skipped = (reason: string): Outcome => ({ claimed, result: { _tag: "Failed", id: send.id, reason }, bounce: null })
        const recipient = send.subscriber
        if (Option.isNone(claimed.mail)) return Effect.succeed(skipped("The automation mail was deleted before it went out."))
        if (recipient === null) return Effect.succeed(skipped("The subscriber was deleted before the mail went out."))
        if (!recipient.subscribed) return Effect.succeed(skipped("The subscriber was no longer subscribed when the mail went out."))
        if (claimed.suppressed) return Effect.succeed(skipped("The address is suppressed."))
        const mail = claimed.mail.value
        const list = send.list
        return Effect.either(compile(mail, list)).pipe(
          Effect.flatMap((compiledOrProblem) => {
            if (compiledOrProblem._tag === "Left") {
              return Effect.succeed(skipped(`The automation mail is not a valid template: ${compiledOrProblem.left}`))
            }
            const { mail: compiledMail, sendLayout } = compiledOrProblem.right
            const replyTo = mail.replyToEmail ?? list?.defaultReplyToEmail ?? null
            const addresses = {
              from: { email: mail.fromEmail ?? list?.defaultFromEmail ?? "", name: mail.fromName ?? list?.defaultFromName ?? null },
              to: { email: recipient.email, name: null },
              replyTo: replyTo === null
                ? null
                : { email: replyTo, name: mail.replyToEmail === null ? list?.defaultReplyToName ?? null : mail.replyToName }
            }
            return Effect.flatMap(signer.signSend(send.uuid), (signatures) => {
              const context = { sendUuid: send.uuid, signatures, recipient }
              if (sendLayout !== null) {
                const { envelope, values } = compiledMail.personalise(context)
                return sendLayout({ ...addresses, ...envelope, values })
              }
              const { text, ...rendered } = compiledMail.render(context)
              return mailer.send({ ...addresses, ...rendered, ...(text === undefined ? {} : { text }) })
            }).pipe(
              Effect.matchEffect({
                onSuccess: () => Effect.sync((): Outcome => ({ claimed, ...deliveryOutcome(send, null, new Date(), retryForMillis) })),
                onFailure: (error) =>
                  Effect.zipRight(
                    problems.note(`automation mail ${mail.uuid}`, error.failure, error.message),
                    Effect.map(now, (at): Outcome => ({ claimed, ...deliveryOutcome(send, error, at, retryForMillis) }))
                  )
              })
            )
          })
        )
      })

    /** Records outcomes with what the bounce policy does about bounces, and counts the mails that went out. */
    const record = (outcomes: ReadonlyArray<Outcome>) => {
      const write = Effect.gen(function*() {
        const at = yield* now
        yield* sends.record(outcomes.map((o) => o.result), at)
        const sent = new Map<AutomationMailId, number>()
        for (const { claimed, result } of outcomes) {
          if (result._tag === "Sent") sent.set(claimed.send.mailId, (sent.get(claimed.send.mailId) ?? 0) + 1)
        }
        for (const [mailId, count] of sent) yield* mails.addCounters(mailId, { sentToNumberOfSubscribers: count }, at)
        for (const { bounce, claimed } of outcomes) {
          if (bounce === null) continue
          yield* bounces.apply({
            email: normalizeEmail(claimed.send.email),
            type: bounce,
            send: {
              id: claimed.send.id,
              campaignId: null,
              automationMailId: claimed.send.mailId,
              subscriberId: claimed.send.subscriber?.id ?? null
            },
            at
          })
        }
      })
      return untilItWorks(withTransaction(write), storage)
    }

    /**
     * The next claimed sends with their mails, up to `room`. When nothing is due: none, or with `wait` the next ones
     * once sends are queued in this process or the poll interval has passed.
     */
    const claim = (room: number, wait: boolean) =>
      Effect.gen(function*() {
        for (;;) {
          const at = yield* now
          const claimed = yield* mails.claim({ now: at, leaseUntil: new Date(at.getTime() + leaseMillis), limit: room, owner })
          if (claimed.length > 0) {
            const stale = [...new Set(claimed.flatMap((send) =>
              send.mailUpdatedAt === null || known.get(send.mailId)?.updatedAt.getTime() === send.mailUpdatedAt.getTime()
                ? []
                : [send.mailId]
            ))]
            if (stale.length > 0) for (const mail of yield* mails.findByIds(stale)) known.set(mail.id, mail)
            const suppressed = yield* suppressions.suppressedAmong(
              claimed.flatMap((send) => (send.subscriber === null ? [] : [normalizeEmail(send.subscriber.email)]))
            )
            yield* storage.ok
            return Option.some(claimed.map((send): Claimed => ({
              send,
              mail: send.mailUpdatedAt === null ? Option.none() : Option.fromNullable(known.get(send.mailId)),
              suppressed: send.subscriber !== null && suppressed.has(normalizeEmail(send.subscriber.email))
            })))
          }
          if (!wait) return Option.none<ReadonlyArray<Claimed>>()
          yield* wakeup.wait(options.pollInterval)
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

    /** Delivers every due automation mail send; how many outcomes it recorded. */
    const deliverDue = Effect.fn("AutomationMailDelivery.deliverDue")(function*() {
      return yield* deliver(false)
    })

    /** Delivers until nothing is due (tests, one-shot tools); how many outcomes were recorded. */
    const drain = Effect.fn("AutomationMailDelivery.drain")(function*() {
      let total = 0
      for (let recorded = yield* deliverDue(); recorded > 0; recorded = yield* deliverDue()) total += recorded
      return total
    })

    /** Delivers forever with one long-lived pump, woken by AutomationMailWakeup, else at every poll interval. */
    const run = pollForever("Automation mail delivery", Effect.as(deliver(true), options.pollInterval), options.pollInterval)

    return { deliverDue, drain, run } as const
  })
}) {}
