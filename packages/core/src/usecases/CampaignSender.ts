import { Duration, Effect, Either, Option } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import { normalizeEmail } from "../domain/Email.js"
import type { EmailList } from "../domain/EmailList.js"
import { newUuid } from "../domain/Ids.js"
import type { ClaimedSend } from "../domain/Send.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { RateBudget } from "../ports/RateBudget.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import type { DeliveryOutcome } from "../sending/deliveryOutcome.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { skippedOutcome, subscriberSkipReason } from "../sending/skippedSend.js"
import { type BulkMail, compileBulkMail } from "./BulkMail.js"
import { deliverBulkSend } from "./deliverBulkSend.js"
import { DeliveryOptions } from "./DeliveryOptions.js"
import { pump } from "./deliveryPump.js"
import { now } from "./now.js"
import { makeOutage, untilItWorks } from "./Outage.js"
import { sendLeases } from "./sendLeases.js"
import { suppressedSubscribers } from "./suppressedSubscribers.js"
import { UrlSigner } from "./UrlSigner.js"
import { MailroomMetrics } from "../metrics/MailroomMetrics.js"

/** A claimed send and whether its address is suppressed. */
interface Claimed {
  readonly send: ClaimedSend
  readonly suppressed: boolean
}

/** The outcome of one claimed send. */
interface Outcome extends DeliveryOutcome {
  readonly send: ClaimedSend
}

/** What one slice of a campaign's delivery did. */
export interface SliceResult {
  /** Sends whose outcome was recorded (retries included). */
  readonly handled: number
  /** Sends mailed or failed for good: progress. */
  readonly finished: number
  /** Of those, the ones mailed. */
  readonly sent: number
  /** Of those, the ones that failed for good. */
  readonly failed: number
  /** A claim found nothing left to send now. */
  readonly exhausted: boolean
  /** The transport failed every mail of a run as long as the concurrency (it looks down): wait before the next slice. */
  readonly transportDown: boolean
}

/**
 * Delivers a sending campaign for a while: claims its pending sends under a lease owned by this process, renders each
 * mail from the campaign compiled once, hands it to the Mailer and records every outcome through the pump (at most
 * `concurrency` mails handed over and not yet recorded: the crash bound), renewing the leases of what it holds and
 * releasing what it will not send when the campaign stops sending (paused here or by any other process), the slice
 * ends or the transport looks down. Permanent refusals go through the one bounce policy.
 */
export class CampaignSender extends Effect.Service<CampaignSender>()("@mailroom/CampaignSender", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const sends = yield* SendRepository
    const links = yield* CampaignLinkRepository
    const suppressions = yield* SuppressionRepository
    const bounces = yield* BouncePolicy
    const { withTransaction } = yield* Transactor
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity
    const options = yield* DeliveryOptions
    const budget = yield* RateBudget
    /** This process's name on the leases it holds. */
    const owner = newUuid()
    const problems = makeDeliveryProblems()
    const storage = makeOutage("Recording campaign deliveries")
    const compiled = new Map<string, BulkMail>()
    const leaseMillis = Duration.toMillis(options.lease)
    const delivery = { signer, mailer, retryForMillis: Duration.toMillis(options.retryFor) }
    /** The last transport failure per campaign id, for the log of a campaign that makes no progress. */
    const lastFailures = new Map<number, string>()

    /**
     * The campaign compiled once per version (its links registered for click tracking); fails with the reason when
     * its html or subject is not a valid template.
     */
    const compile = (campaign: Campaign, list: EmailList) => {
      const key = `${campaign.id}:${campaign.updatedAt.getTime()}`
      const cached = compiled.get(key)
      return cached !== undefined ? Effect.succeed(cached) : Effect.map(
        compileBulkMail(campaign, {
          list: { uuid: list.uuid, name: list.name },
          ensureLinks: (urls) => links.ensure(campaign.id, urls),
          signer,
          mailer,
          identity,
          publicLinks
        }),
        (result) => {
          compiled.set(key, result)
          return result
        }
      )
    }

    /**
     * How many of `want` mails may go now: all of them without a rate limit, else what the shared per-second budget
     * grants (waiting for the next second when this one is used up), so the limit holds across worker processes.
     */
    const allowance = (want: number): Effect.Effect<number> =>
      options.ratePerSecond <= 0 ? Effect.succeed(want) : Effect.gen(function*() {
        for (;;) {
          const at = yield* now
          const granted = yield* budget.take("mailer:default", Math.min(want, options.ratePerSecond), options.ratePerSecond, at)
          if (granted > 0) return granted
          yield* Effect.sleep(Duration.millis(1000 - (at.getTime() % 1000) + 1))
        }
      })

    /**
     * Records a group of outcomes, retried until the store takes it, in one transaction with what the bounce policy
     * does about bounces and with the mails that went out added to the campaign's sent count (last, so the campaign's
     * row is held only while the transaction commits; a send recorded twice is counted once). Then tells whether the
     * campaign is still sending: every worker waits for this before its next mail, so none starts another once a pause
     * is committed.
     */
    const record = (campaign: Campaign, outcomes: ReadonlyArray<Outcome>) => {
      const write = Effect.gen(function*() {
        const at = yield* now
        const sent = yield* sends.record(outcomes.map((o) => o.result), at)
        yield* bounces.applyAll(outcomes.flatMap(({ bounce, send }) =>
          bounce === null ? [] : [{
            email: normalizeEmail(send.email),
            type: bounce,
            send: { id: send.id, campaignId: campaign.id, subscriberId: send.subscriber?.id ?? null },
            at
          }]
        ))
        yield* campaigns.addSent(campaign.id, sent)
      })
      return untilItWorks(Effect.zipRight(withTransaction(write), stillSending(campaign)), storage)
    }

    /** Whether the campaign is still sending (not paused, cancelled or deleted). */
    const stillSending = (campaign: Campaign) =>
      Effect.map(campaigns.statusOf(campaign.id), (status) => Option.isSome(status) && status.value === "sending")

    /** Delivers `campaign` until `deadline` (ms), it stops sending, nothing is left to claim or the transport is down. */
    const deliverSlice = Effect.fn("CampaignSender.deliverSlice")(function*(campaign: Campaign, list: EmailList, deadline: number) {
      const compiledOrProblem = yield* Effect.either(compile(campaign, list))
      if (Either.isLeft(compiledOrProblem)) {
        // a campaign stored before templates were checked: it is not sent broken, it waits for a fix
        yield* campaigns.transition(campaign.id, ["sending"], "paused", { updatedAt: yield* now })
        yield* Effect.logWarning(`Campaign ${campaign.uuid} paused: its content is not a valid template: ${compiledOrProblem.left}`)
        return { handled: 0, finished: 0, sent: 0, failed: 0, exhausted: false, transportDown: false } satisfies SliceResult
      }
      const mail = compiledOrProblem.right
      const state = { exhausted: false, transportDown: false, stopped: false, temporaryInARow: 0, sent: 0, failed: 0 }

      /** Mails one claimed send; its outcome (never fails: transport errors become outcomes). */
      const deliverOne = ({ send, suppressed }: Claimed): Effect.Effect<Outcome> =>
        Effect.suspend(() => {
          const recipient = send.subscriber
          const skip = subscriberSkipReason(recipient, suppressed)
          if (recipient === null || skip !== null) return Effect.succeed({ send, ...skippedOutcome(send.id, skip!) })
          // a few effects per mail only: this runs thousands of times a second
          return deliverBulkSend(
            delivery,
            mail,
            {
              from: { email: campaign.fromEmail!, name: campaign.fromName },
              to: { email: recipient.email, name: null },
              replyTo: campaign.replyToEmail === null ? null : { email: campaign.replyToEmail, name: campaign.replyToName }
            },
            send,
            recipient,
            (error) => problems.note(`campaign ${campaign.uuid}`, error.failure, error.message),
            (outcome, error): Outcome => {
              if (error === null) state.temporaryInARow = 0
              else {
                lastFailures.set(campaign.id, error.message)
                state.temporaryInARow = error.failure === "temporary" ? state.temporaryInARow + 1 : 0
                if (state.temporaryInARow >= options.concurrency) state.transportDown = true
              }
              return { send, ...outcome }
            }
          )
        })

      /** The next claimed sends, up to `room`; none once the campaign stops sending, the slice ends or nothing is left. */
      const claim = (room: number) =>
        Effect.gen(function*() {
          if (!(yield* stillSending(campaign)) || (yield* now).getTime() >= deadline) return Option.none()
          const want = yield* allowance(room)
          const at = yield* now
          const claimed = yield* sends.claim({ campaignId: campaign.id, now: at, leaseUntil: new Date(at.getTime() + leaseMillis), limit: want, owner })
          if (claimed.length === 0) {
            state.exhausted = true
            return Option.none()
          }
          const suppressed = yield* suppressedSubscribers(suppressions, claimed)
          yield* storage.ok
          return Option.some(claimed.map((send): Claimed => ({ send, suppressed: suppressed(send) })))
        }).pipe(Effect.catchAllCause((cause) => Effect.as(storage.failed(cause), Option.none<ReadonlyArray<Claimed>>())))

      const handled = yield* pump({
        concurrency: options.concurrency,
        batchSize: options.batchSize,
        claim,
        deliver: (claimed: Claimed) =>
          Effect.tap(deliverOne(claimed), (outcome) => {
            MailroomMetrics.countMail("campaign", outcome.result._tag)
            if (outcome.result._tag === "Sent") state.sent++
            else if (outcome.result._tag === "Failed") state.failed++
          }),
        record: (outcomes: ReadonlyArray<Outcome>) =>
          Effect.map(record(campaign, outcomes), (sending) => {
            if (!sending) state.stopped = true
          }),
        recordLinger: options.recordLinger,
        ...sendLeases<Claimed>(sends, { owner, leaseMillis, storage }),
        stopped: () => state.transportDown || state.stopped,
        watch: stillSending(campaign).pipe(
          Effect.map((sending) => !sending),
          Effect.catchAllCause((cause) => Effect.as(storage.failed(cause), false))
        ),
        watchEvery: options.pollInterval
      })
      return {
        handled: handled.recorded,
        finished: state.sent + state.failed,
        sent: state.sent,
        failed: state.failed,
        exhausted: state.exhausted,
        transportDown: state.transportDown
      } satisfies SliceResult
    })

    /** The last transport failure of the campaign's mails seen by this process, if any. */
    const lastFailure = (campaign: Campaign): string | null => lastFailures.get(campaign.id) ?? null

    return { deliverSlice, lastFailure, problemTotals: problems.totals } as const
  })
}) {}
