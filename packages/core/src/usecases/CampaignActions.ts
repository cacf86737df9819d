import { Effect, Either, Option } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import { type CampaignAction, nextCampaignStatus } from "../domain/CampaignStatus.js"
import { CampaignConflict } from "../errors/CampaignConflict.js"
import { CampaignNotSendable } from "../errors/CampaignNotSendable.js"
import { ValidationError } from "../errors/ValidationError.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { JobQueue } from "../ports/JobQueue.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { findByRef } from "./lookup.js"
import { now } from "./now.js"
import { wakeWorker } from "./WorkSignal.js"
import { testMailRecipients } from "./testMailRecipients.js"

/** Job kind of a campaign test mail. */
export const CAMPAIGN_TEST_MAIL = "campaign-test-mail"

/** Sending a campaign, testing it, pausing and resuming it. */
export class CampaignActions extends Effect.Service<CampaignActions>()("@mailroom/CampaignActions", {
  effect: Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const jobs = yield* JobQueue

    const find = (ref: string) => findByRef("Campaign", ref, repo.findByUuid, repo.findById)

    /** The campaign's segment is usable: none, or one that still exists in the campaign's list. */
    const segmentValid = (campaign: Campaign) =>
      campaign.segmentId === null
        ? Effect.succeed(true)
        : Effect.map(segments.findById(campaign.segmentId), (segment) =>
          Option.isSome(segment) && segment.value.emailListId === campaign.emailListId)

    /**
     * Starts sending (draft or scheduled): checks it has a list, a sender, a subject and content, freezes the
     * sender and segment description, and sets the status to sending; the delivery loop does the rest.
     */
    const start = (campaign: Campaign) =>
      Effect.gen(function*() {
        const cannot = (why: string) =>
          new CampaignNotSendable({ message: `The campaign with uuid \`${campaign.uuid}\` can't be sent because ${why}.` })
        if (Either.isLeft(nextCampaignStatus(campaign.status, "send"))) {
          return yield* cannot(campaign.status === "sent" ? "it was already sent" : `it is ${campaign.status}`)
        }
        const list = campaign.emailListId === null ? Option.none() : yield* lists.findById(campaign.emailListId)
        if (Option.isNone(list)) return yield* cannot("there is no list set to send it to")
        const fromEmail = campaign.fromEmail ?? list.value.defaultFromEmail
        if (!fromEmail) return yield* cannot("it has no from email")
        if (!campaign.subject?.trim()) return yield* cannot("it has no subject")
        if (!campaign.html?.trim()) return yield* cannot("it has no content")
        if (!(yield* segmentValid(campaign))) return yield* cannot("its segment no longer exists in its list")
        const segment = campaign.segmentId === null ? Option.none() : yield* segments.findById(campaign.segmentId)
        const started = yield* repo.transition(campaign.id, ["draft", "scheduled"], "sending", {
          fromEmail,
          fromName: campaign.fromName ?? list.value.defaultFromName,
          replyToEmail: list.value.defaultReplyToEmail,
          replyToName: list.value.defaultReplyToName,
          segmentDescription: Option.match(segment, { onNone: () => "all subscribers", onSome: (s) => s.name }),
          emailHtml: campaign.html,
          webviewHtml: campaign.html,
          scheduledAt: null,
          updatedAt: yield* now
        })
        if (Option.isNone(started)) return yield* cannot("it was already sent")
        yield* wakeWorker("campaigns")
        return started.value
      })

    const send = Effect.fn("CampaignActions.send")(function*(ref: string) {
      yield* start(yield* find(ref))
    })

    /** Pauses (sending or paused) or resumes (paused or sending; the segment must still be valid); 409 otherwise. */
    const move = (action: Extract<CampaignAction, "pause" | "resume">) =>
      Effect.fn(`CampaignActions.${action}`)(function*(ref: string) {
        const campaign = yield* find(ref)
        const next = nextCampaignStatus(campaign.status, action)
        if (Either.isLeft(next)) {
          return yield* new CampaignConflict({ message: `Campaign cannot be ${action}d in status ${campaign.status}.` })
        }
        if (action === "resume" && !(yield* segmentValid(campaign))) {
          return yield* new CampaignConflict({ message: "Campaign cannot be resumed: its segment no longer exists in its list." })
        }
        if (next.right === campaign.status) return
        const moved = yield* repo.transition(campaign.id, [campaign.status], next.right, { updatedAt: yield* now })
        if (Option.isNone(moved)) {
          return yield* new CampaignConflict({ message: `Campaign cannot be ${action}d: its status just changed.` })
        }
        if (next.right === "sending") yield* wakeWorker("campaigns")
      })

    /** Queues test mails (1-10 distinct addresses) of a draft or scheduled campaign. */
    const sendTest = Effect.fn("CampaignActions.sendTest")(function*(ref: string, emailText: string) {
      const campaign = yield* find(ref)
      const emails = yield* testMailRecipients(emailText)
      if (campaign.status !== "draft" && campaign.status !== "scheduled") {
        return yield* ValidationError.field("campaign", "You can only send a test of a draft campaign.")
      }
      yield* jobs.enqueue({ kind: CAMPAIGN_TEST_MAIL, payload: { campaignId: campaign.id, emails }, runAt: yield* now })
    })

    return { send, start, pause: move("pause"), resume: move("resume"), sendTest } as const
  })
}) {}
