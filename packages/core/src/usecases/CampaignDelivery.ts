import { Duration, Effect, Option, Ref } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import { compileCampaign, type CompiledCampaign, type SendContext, trackableLinks } from "../domain/CampaignMail.js"
import type { EmailList } from "../domain/EmailList.js"
import { normalizeEmail } from "../domain/Email.js"
import { segmentRule } from "../domain/SegmentRule.js"
import type { ClaimedSend } from "../domain/Send.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { type LayoutMail, type MailError, Mailer } from "../ports/Mailer.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { RateBudget } from "../ports/RateBudget.js"
import { type DeliveryResult, SendRepository } from "../ports/SendRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { TrackingRepository } from "../ports/TrackingRepository.js"
import { AppUrl } from "./AppUrl.js"
import { CampaignActions } from "./CampaignActions.js"
import { DeliveryOptions } from "./DeliveryOptions.js"
import { pump } from "./deliveryPump.js"
import { now } from "./now.js"
import { UrlSigner } from "./UrlSigner.js"

/** A claimed send and whether its address is suppressed. */
interface Claimed {
  readonly send: ClaimedSend
  readonly suppressed: boolean
}

/** The outcome of one claimed send. */
interface Outcome {
  readonly send: ClaimedSend
  readonly result: DeliveryResult
}

/** A campaign compiled once, with the transport's prepared sender for its layout when it has a bulk path. */
interface Compiled {
  readonly mail: CompiledCampaign
  readonly sendLayout: ((mail: LayoutMail) => Effect.Effect<void, MailError>) | null
}

/** Delay before retrying a send after a temporary failure: 30 s doubling per attempt, at most an hour. */
const sendRetryMillis = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000)

/**
 * The delivery engine. Each step: start scheduled campaigns that are due; for every sending campaign, first freeze
 * its audience (one send row per eligible subscriber, set-based, resumable), then claim a batch of pending sends
 * under a lease, render each mail from the campaign compiled once, hand it to the Mailer and record every outcome;
 * a campaign with nothing pending becomes sent. Paused campaigns are not claimed from.
 */
export class CampaignDelivery extends Effect.Service<CampaignDelivery>()("@mailroom/CampaignDelivery", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const sends = yield* SendRepository
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const links = yield* CampaignLinkRepository
    const suppressions = yield* SuppressionRepository
    const tracking = yield* TrackingRepository
    const actions = yield* CampaignActions
    const signer = yield* UrlSigner
    const mailer = yield* Mailer
    const appUrl = yield* AppUrl
    const options = yield* DeliveryOptions
    const budget = yield* RateBudget
    const compiled = new Map<string, Compiled>()

    /** The campaign compiled once per version (its links registered for click tracking). */
    const compile = (campaign: Campaign, list: EmailList) =>
      Effect.gen(function*() {
        const key = `${campaign.id}:${campaign.updatedAt.getTime()}`
        const cached = compiled.get(key)
        if (cached !== undefined) return cached
        const html = campaign.emailHtml ?? campaign.html ?? ""
        const tracked = yield* links.ensure(campaign.id, trackableLinks(html))
        const mail = compileCampaign(html, campaign.subject ?? campaign.name, {
          appUrl,
          campaignUuid: campaign.uuid,
          campaignName: campaign.name,
          listUuid: list.uuid,
          listName: list.name,
          linkIds: new Map(tracked.map((link) => [link.url, link.id])),
          trackOpens: true,
          utmTags: campaign.utmTags
        })
        // the bulk path when the transport has one: it sees the layout once, then each mail only its values
        const result: Compiled = {
          mail,
          sendLayout: mail.layout === null || mailer.prepare === undefined ? null : mailer.prepare(mail.layout)
        }
        compiled.set(key, result)
        return result
      })

    /** Freezes the next slice of the audience; true when the whole audience has send rows. */
    const freezeStep = (campaign: Campaign, cursor: number) =>
      Effect.gen(function*() {
        const segment = campaign.segmentId === null ? Option.none() : yield* segments.findById(campaign.segmentId)
        const { covered, lastSubscriberId } = yield* sends.freezeBatch({
          campaignId: campaign.id,
          emailListId: campaign.emailListId!,
          segment: Option.match(segment, { onNone: () => null, onSome: segmentRule }),
          afterSubscriberId: cursor,
          limit: options.freezeBatch,
          at: yield* now
        })
        return { done: covered < options.freezeBatch, cursor: lastSubscriberId }
      })

    /** Hands one send's mail to the transport: its values into the prepared layout, or the whole rendered mail. */
    const mailTo = (campaign: Campaign, { mail, sendLayout }: Compiled, context: SendContext) => {
      const addresses = {
        from: { email: campaign.fromEmail!, name: campaign.fromName },
        to: { email: context.recipient.email, name: null },
        replyTo: campaign.replyToEmail === null ? null : { email: campaign.replyToEmail, name: campaign.replyToName }
      }
      if (sendLayout !== null) return sendLayout({ ...addresses, ...mail.envelope(context), values: mail.values(context) })
      const { text, ...rendered } = mail.render(context)
      return mailer.send({ ...addresses, ...rendered, ...(text === undefined ? {} : { text }) })
    }

    /** Mails one claimed send; its outcome (never fails: transport errors become Retry or Failed). */
    const deliverOne = (campaign: Campaign, mail: Compiled, { send, suppressed }: Claimed): Effect.Effect<Outcome> =>
      Effect.suspend(() => {
        const failed = (reason: string): Outcome => ({ send, result: { _tag: "Failed", id: send.id, reason } })
        const recipient = send.subscriber
        if (recipient === null) return Effect.succeed(failed("The subscriber was deleted before the mail went out."))
        if (!recipient.subscribed) return Effect.succeed(failed("The subscriber was no longer subscribed when the mail went out."))
        if (suppressed) return Effect.succeed(failed("The address is suppressed."))
        // a few effects per mail only: this runs thousands of times a second
        return Effect.flatMap(signer.sign(send.uuid), (signature) =>
          mailTo(campaign, mail, { sendUuid: send.uuid, signature, recipient })).pipe(
          Effect.matchEffect({
            onSuccess: () => Effect.succeed<Outcome>({ send, result: { _tag: "Sent", id: send.id, transportMessageId: null } }),
            onFailure: (error) =>
              Effect.map(now, (at): Outcome =>
                error.permanent
                  ? { send, result: { _tag: "Failed", id: send.id, reason: error.message, bounced: true } }
                  : send.attempts >= options.maxAttempts
                  ? failed(error.message)
                  : {
                    send,
                    result: { _tag: "Retry", id: send.id, reason: error.message, retryAt: new Date(at.getTime() + sendRetryMillis(send.attempts)) }
                  })
          })
        )
      })

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

    /** Records a group of outcomes; SMTP 5xx answers are also stored as bounces and counted on the campaign. */
    const record = (campaign: Campaign, outcomes: ReadonlyArray<Outcome>) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* sends.record(outcomes.map((o) => o.result), at)
        let first = 0
        for (const { result, send } of outcomes) {
          if (result._tag !== "Failed" || result.bounced !== true) continue
          const fresh = yield* tracking.recordBounce({
            campaignId: campaign.id,
            sendId: send.id,
            subscriberId: send.subscriber?.id ?? null,
            email: normalizeEmail(send.email),
            type: "bounce",
            at
          })
          if (fresh) first++
        }
        if (first > 0) yield* campaigns.addCounters(campaign.id, { bounceCount: first }, at)
      })

    /**
     * The next claimed batch while the campaign is still sending and the slice lasts: none when it is paused,
     * cancelled or deleted, when the slice is over, or when nothing is left to claim (`exhausted`).
     */
    const claimNext = (campaign: Campaign, deadline: number, exhausted: Ref.Ref<boolean>) =>
      Effect.gen(function*() {
        const current = yield* campaigns.findById(campaign.id)
        if (Option.isNone(current) || current.value.status !== "sending") return Option.none()
        if ((yield* now).getTime() >= deadline) return Option.none()
        const want = yield* allowance(options.batchSize)
        const at = yield* now
        const claimed = yield* sends.claim({
          campaignId: campaign.id,
          now: at,
          leaseUntil: new Date(at.getTime() + Duration.toMillis(options.lease)),
          limit: want
        })
        if (claimed.length === 0) {
          yield* Ref.set(exhausted, true)
          return Option.none()
        }
        const suppressed = yield* suppressions.suppressedAmong(
          claimed.flatMap((send) => (send.subscriber === null ? [] : [normalizeEmail(send.subscriber.email)]))
        )
        return Option.some(claimed.map((send): Claimed => ({
          send,
          suppressed: send.subscriber !== null && suppressed.has(normalizeEmail(send.subscriber.email))
        })))
      })

    /**
     * Delivers the campaign for one slice through the pump: `concurrency` mails in flight, batches claimed ahead of
     * need, outcomes recorded every `batchSize`. A crash re-sends at most what was mailed but not yet recorded
     * (`2 × batchSize + concurrency`, see deliveryPump). The number of sends handled, and whether the campaign has nothing left to claim.
     */
    const deliverSlice = (campaign: Campaign, list: EmailList) =>
      Effect.gen(function*() {
        const mail = yield* compile(campaign, list)
        const exhausted = yield* Ref.make(false)
        const deadline = (yield* now).getTime() + Duration.toMillis(options.slice)
        const handled = yield* pump({
          concurrency: options.concurrency,
          claim: claimNext(campaign, deadline, exhausted),
          deliver: (claimed: Claimed) => deliverOne(campaign, mail, claimed),
          record: (outcomes: ReadonlyArray<Outcome>) => record(campaign, outcomes),
          recordEvery: options.batchSize,
          prefetchBelow: options.concurrency
        })
        return { handled, exhausted: yield* Ref.get(exhausted) }
      })

    /** Marks the campaign sent when its audience is frozen and nothing is pending. */
    const completeIfDone = (campaign: Campaign) =>
      Effect.gen(function*() {
        if ((yield* sends.pendingCount(campaign.id)) > 0) return
        const at = yield* now
        yield* campaigns.transition(campaign.id, ["sending"], "sent", {
          sentAt: at,
          sentToNumberOfSubscribers: yield* sends.sentCount(campaign.id),
          updatedAt: at
        })
      })

    /** One step over every campaign that has work; the number of sends handled (0 when idle). */
    const step = Effect.fn("CampaignDelivery.step")(function*() {
      for (const due of yield* campaigns.due(yield* now)) {
        yield* actions.start(due).pipe(Effect.catchAll((error) => Effect.logWarning(`Scheduled campaign ${due.uuid} not sent: ${error.message}`)))
      }
      let handled = 0
      for (const campaign of yield* campaigns.withStatus(["sending"])) {
        const list = campaign.emailListId === null ? Option.none() : yield* lists.findById(campaign.emailListId)
        if (Option.isNone(list)) {
          const at = yield* now
          yield* campaigns.transition(campaign.id, ["sending"], "cancelled", { sentAt: at, updatedAt: at })
          continue
        }
        if (campaign.segmentId !== null) {
          const segment = yield* segments.findById(campaign.segmentId)
          if (Option.isNone(segment) || segment.value.emailListId !== campaign.emailListId) {
            yield* campaigns.transition(campaign.id, ["sending"], "paused", { updatedAt: yield* now })
            yield* Effect.logWarning(`Campaign ${campaign.uuid} paused: its segment no longer exists in its list.`)
            continue
          }
        }
        if (campaign.audienceFrozenAt === null) {
          const { cursor, done } = yield* freezeStep(campaign, campaign.audienceCursor)
          yield* campaigns.saveAudienceProgress(campaign.id, cursor, done ? yield* now : null)
          handled += 1
          continue
        }
        const slice = yield* deliverSlice(campaign, list.value)
        if (slice.exhausted) yield* completeIfDone(campaign)
        handled += slice.handled
      }
      return handled
    })

    /** Steps until there is nothing left to do (tests, one-shot tools). */
    const drain = Effect.fn("CampaignDelivery.drain")(function*() {
      let total = 0
      for (let handled = yield* step(); handled > 0; handled = yield* step()) total += handled
      return total
    })

    /** Steps forever, pausing when idle; the server forks it, `mailroom worker` runs it. */
    const run = Effect.gen(function*() {
      return yield* Effect.forever(
        step().pipe(
          Effect.catchAllCause((cause) => Effect.as(Effect.logError("Delivery step failed", cause), 0)),
          Effect.flatMap((handled) => (handled === 0 ? Effect.sleep(options.pollInterval) : Effect.void))
        )
      )
    })

    return { step, drain, run } as const
  })
}) {}
