import { Duration, Effect, Option } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import { segmentRule } from "../domain/SegmentRule.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { SendRepository } from "../ports/SendRepository.js"
import { CampaignActions } from "./CampaignActions.js"
import { CampaignSender } from "./CampaignSender.js"
import { DeliveryOptions } from "./DeliveryOptions.js"
import { now } from "./now.js"
import { pollForever, SLOWEST_IDLE_POLL } from "./pollForever.js"
import { makeProgressLog } from "./ProgressLog.js"

/**
 * The delivery engine. Each step: start scheduled campaigns that are due; for every sending campaign, first freeze
 * its audience (one send row per eligible subscriber, set-based, resumable), then deliver it for a slice through the
 * CampaignSender; a campaign with nothing pending becomes sent. Paused campaigns are not claimed from. A campaign
 * that makes no progress for `stallWarning` says why in the log; a transport that looks down pauses delivery for a
 * growing while (1 s to 30 s) instead of failing every pending mail.
 */
export class CampaignDelivery extends Effect.Service<CampaignDelivery>()("@mailroom/CampaignDelivery", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const sends = yield* SendRepository
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const actions = yield* CampaignActions
    const sender = yield* CampaignSender
    const options = yield* DeliveryOptions
    /** Per sending campaign: when it last made progress and when its stall was last logged (ms). */
    const progress = new Map<number, { at: number; warnedAt: number }>()
    let transportPause = 0
    const log = makeProgressLog({ key: "campaign", done: "sent", failed: "failed" }, Duration.toMillis(options.progressLogEvery))

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

    /** Marks the campaign sent when its audience is frozen and nothing is pending. */
    const completeIfDone = (campaign: Campaign) =>
      Effect.gen(function*() {
        if ((yield* sends.pendingCount(campaign.id)) > 0) return
        const at = yield* now
        const sent = yield* sends.sentCount(campaign.id)
        const done = yield* campaigns.transition(campaign.id, ["sending"], "sent", { sentAt: at, sentToNumberOfSubscribers: sent, updatedAt: at })
        progress.delete(campaign.id)
        if (Option.isNone(done)) return
        yield* log.end(
          campaign.uuid,
          (t) => `Campaign ${campaign.uuid} sent to ${sent} subscribers (this worker: ${t.done} sent, ${t.failed} failed, ${t.rate} mails/s over ${t.seconds} s)`,
          { subscribers: sent }
        )
      })

    /** Notes the campaign's progress (sends finished); after `stallWarning` without any, logs why (once per `stallWarning`). */
    const watchProgress = (campaign: Campaign, finished: number) =>
      Effect.gen(function*() {
        const at = (yield* now).getTime()
        const seen = progress.get(campaign.id)
        if (seen === undefined || finished > 0) return void progress.set(campaign.id, { at, warnedAt: at })
        const stall = Duration.toMillis(options.stallWarning)
        if (at - seen.at < stall || at - seen.warnedAt < stall) return
        seen.warnedAt = at
        const pending = yield* sends.pendingCount(campaign.id)
        const failure = sender.lastFailure(campaign)
        yield* Effect.logWarning(
          `Campaign ${campaign.uuid} has sent no mail for ${Math.round((at - seen.at) / 1000)} s with ${pending} sends pending: ` +
            (failure === null
              ? "they wait for a retry after temporary failures, or other workers hold them"
              : `the last failure was: ${failure}`)
        )
      })

    /** One step over every campaign that has work: how many sends it handled, and whether the transport looks down. */
    const stepOnce = Effect.gen(function*() {
      for (const due of yield* campaigns.due(yield* now)) {
        yield* actions.start(due).pipe(Effect.catchAll((error) => Effect.logWarning(`Scheduled campaign ${due.uuid} not sent: ${error.message}`)))
      }
      let handled = 0
      const sending = yield* campaigns.withStatus(["sending"])
      for (const id of progress.keys()) if (!sending.some((c) => c.id === id)) progress.delete(id)
      for (const uuid of log.ids()) if (!sending.some((c) => c.uuid === uuid)) log.forget(uuid)
      for (const campaign of sending) {
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
          if (done) {
            const recipients = yield* sends.pendingCount(campaign.id)
            yield* log.start(campaign.uuid, `Campaign ${campaign.uuid} started: ${recipients} recipients`, { recipients })
          }
          handled += 1
          continue
        }
        const deadline = (yield* now).getTime() + Duration.toMillis(options.slice)
        const slice = yield* sender.deliverSlice(campaign, list.value, deadline)
        handled += slice.handled
        yield* watchProgress(campaign, slice.finished)
        yield* log.add(
          campaign.uuid,
          slice.sent,
          slice.failed,
          (t) => `Campaign ${campaign.uuid}: ${t.done} sent, ${t.failed} failed, ${t.rate} mails/s`
        )
        if (slice.transportDown) return { handled, transportDown: true }
        if (slice.exhausted) yield* completeIfDone(campaign)
      }
      return { handled, transportDown: false }
    })

    /** One step over every campaign that has work; the number of sends handled (0 when idle). */
    const step = Effect.fn("CampaignDelivery.step")(function*() {
      return (yield* stepOnce).handled
    })

    /** Steps until there is nothing left to do (tests, one-shot tools). */
    const drain = Effect.fn("CampaignDelivery.drain")(function*() {
      let total = 0
      for (let handled = yield* step(); handled > 0; handled = yield* step()) total += handled
      return total
    })

    /** Steps forever, pausing when idle or when the transport looks down; the server forks it, `mailroom worker` runs it. */
    const run = pollForever(
      "Campaign delivery",
      Effect.map(stepOnce, ({ handled, transportDown }) => {
        if (!transportDown) {
          transportPause = 0
          return handled
        }
        transportPause = Math.min(Math.max(1_000, transportPause * 2), 30_000)
        return Duration.millis(transportPause)
      }),
      options.pollInterval,
      SLOWEST_IDLE_POLL,
      "campaigns"
    )

    return { step, drain, run } as const
  })
}) {}
