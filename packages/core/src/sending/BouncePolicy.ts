import { Effect, Option } from "effect"
import type { BounceType } from "../domain/Feedback.js"
import type { CampaignId, SendId, SubscriberId, SuppressionUuid } from "../domain/Ids.js"
import { newUuid } from "../domain/Ids.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import type { MailError } from "../ports/Mailer.js"
import { CampaignRepository, type CounterDelta } from "../ports/CampaignRepository.js"
import { entriesById } from "../domain/entriesById.js"
import { AutomationMailRepository } from "../automations/AutomationMailRepository.js"
import type { AutomationMailId } from "../automations/AutomationIds.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { TrackingRepository } from "../ports/TrackingRepository.js"
import { makeMailEventRecorder } from "../events/recordMailEvent.js"
import { BounceOptions } from "./BounceOptions.js"

/** A bounce or complaint to apply: the address, what happened, and the send it is about when known. */
export interface BounceReport {
  /** The normalized address. */
  readonly email: string
  readonly type: BounceType
  readonly send: {
    readonly id: SendId
    readonly campaignId: CampaignId | null
    readonly subscriberId: SubscriberId | null
    readonly transactionalMailId?: number | null
    readonly automationMailId?: number | null
  } | null
  readonly at: Date
}

/** Enhanced status codes (RFC 3463) of the sender's own address: not the recipient's fault. */
const SENDER_PROBLEMS = new Set(["5.1.7", "5.1.8"])

/**
 * What a permanent SMTP refusal says of the address: a hard bounce when the mailbox does not exist or is disabled
 * (enhanced codes 5.1.x but the sender's own 5.1.7/5.1.8, and 5.2.1; without an enhanced code, replies 550, 551 and
 * 553), else a soft bounce (a full mailbox, a message too large, a policy or content refusal).
 */
export const bounceTypeOf = (error: Pick<MailError, "code" | "enhancedCode">): BounceType => {
  const enhanced = error.enhancedCode
  if (enhanced !== null) {
    return (enhanced.startsWith("5.1.") && !SENDER_PROBLEMS.has(enhanced)) || enhanced === "5.2.1" ? "bounce" : "soft_bounce"
  }
  return error.code === 550 || error.code === 551 || error.code === 553 ? "bounce" : "soft_bounce"
}

/** Counter moves gathered while reports are applied, per campaign and per automation mail. */
interface Counts {
  readonly campaigns: Map<number, CounterDelta>
  readonly automationMails: Map<number, CounterDelta>
}

/** Adds one to a counter of `id`. */
const count = (counts: Map<number, CounterDelta>, id: number, counter: "bounceCount" | "unsubscribeCount") => {
  const delta = counts.get(id) ?? {}
  counts.set(id, { ...delta, [counter]: (delta[counter] ?? 0) + 1 })
}

/**
 * The one bounce policy, for SMTP refusals at delivery and providers' feedback alike. Every report is stored (and
 * counted on the campaign once per send). A hard bounce suppresses the address and unsubscribes it from every list it
 * is subscribed to; a soft bounce only counts, until `softBounceLimit` of them in a row (no delivery between them)
 * suppress it the same way; a complaint suppresses and unsubscribes and counts as the campaign's unsubscribe.
 * Runs inside the caller's transaction.
 */
export class BouncePolicy extends Effect.Service<BouncePolicy>()("@mailroom/BouncePolicy", {
  effect: Effect.gen(function*() {
    const tracking = yield* TrackingRepository
    const campaigns = yield* CampaignRepository
    const automationMails = yield* AutomationMailRepository
    const subscribers = yield* SubscriberRepository
    const suppressions = yield* SuppressionRepository
    const options = yield* BounceOptions
    const recordMailEvent = yield* makeMailEventRecorder

    /** Unsubscribes every list's subscribed member with this address, and the send's subscriber should it have moved. */
    const unsubscribeEverywhere = (email: string, subscriberId: SubscriberId | null, at: Date) =>
      Effect.gen(function*() {
        const members = yield* subscribers.findAllByEmail(email)
        const moved = subscriberId === null || members.some((s) => s.id === subscriberId)
          ? Option.none()
          : yield* subscribers.findById(subscriberId)
        // list by list in id order, as every writer takes the lists' counter rows
        const all = [...members, ...Option.toArray(moved)].sort((a, b) => a.emailListId - b.emailListId)
        for (const subscriber of all) {
          if (subscriberStatus(subscriber) !== "subscribed") continue
          yield* subscribers.update(subscriber, { ...subscriber, unsubscribedAt: at, updatedAt: at })
        }
      })

    /** Applies one report but the counters, which it adds to `counts`; whether the address is suppressed because of it. */
    const applyOne = (report: BounceReport, counts: Counts) =>
      Effect.gen(function*() {
        const { at, email, send, type } = report
        const campaignId = send?.campaignId ?? null
        const automationMailId = (send?.automationMailId ?? null) as AutomationMailId | null
        const first = yield* tracking.recordBounce({
          campaignId,
          automationMailId,
          sendId: send?.id ?? null,
          subscriberId: send?.subscriberId ?? null,
          email,
          type,
          at
        })
        if (first && campaignId !== null) count(counts.campaigns, campaignId, "bounceCount")
        if (first && automationMailId !== null) count(counts.automationMails, automationMailId, "bounceCount")
        yield* recordMailEvent(
          type === "complaint" ? "mail.complained" : "mail.bounced",
          { id: send?.id ?? null, campaignId, subscriberId: send?.subscriberId ?? null, transactionalMailId: send?.transactionalMailId ?? null },
          at,
          { email, bounce_type: type }
        )
        const suppress = type !== "soft_bounce" || (yield* tracking.softBounceStreak(email)) >= options.softBounceLimit
        if (!suppress) return false
        yield* suppressions.insertOrGet({
          uuid: newUuid() as SuppressionUuid,
          email,
          reason: type === "complaint" ? "spam_complaint" : "hard_bounce",
          createdAt: at,
          updatedAt: at
        })
        yield* unsubscribeEverywhere(email, send?.subscriberId ?? null, at)
        if (type === "complaint" && campaignId !== null && send?.subscriberId != null) {
          const fresh = yield* tracking.recordUnsubscribe({ campaignId, sendId: send.id, subscriberId: send.subscriberId, email, at })
          if (fresh) count(counts.campaigns, campaignId, "unsubscribeCount")
        }
        if (type === "complaint" && automationMailId !== null && send?.subscriberId != null) {
          const fresh = yield* automationMails.recordUnsubscribe({ mailId: automationMailId, sendId: send.id, subscriberId: send.subscriberId, email, at })
          if (fresh) count(counts.automationMails, automationMailId, "unsubscribeCount")
        }
        return true
      })

    /**
     * Applies reports in order; for each, whether the address is suppressed because of it. The campaigns' and
     * automation mails' counters move last, in id order: an unsubscribe takes a list's row before its campaign's, so a
     * batch that held a campaign's row while unsubscribing a bounced address deadlocked with it on Postgres.
     */
    const applyAll = Effect.fn("BouncePolicy.applyAll")(function*(reports: ReadonlyArray<BounceReport>) {
      const counts: Counts = { campaigns: new Map(), automationMails: new Map() }
      const suppressed: Array<boolean> = []
      for (const report of reports) suppressed.push(yield* applyOne(report, counts))
      const at = reports[reports.length - 1]?.at
      if (at === undefined) return suppressed
      for (const [id, delta] of entriesById(counts.campaigns)) yield* campaigns.addCounters(id as CampaignId, delta, at)
      for (const [id, delta] of entriesById(counts.automationMails)) yield* automationMails.addCounters(id as AutomationMailId, delta, at)
      return suppressed
    })

    /** Applies a report; whether the address is suppressed because of it. */
    const apply = Effect.fn("BouncePolicy.apply")(function*(report: BounceReport) {
      return (yield* applyAll([report]))[0]!
    })

    return { apply, applyAll } as const
  })
}) {}
