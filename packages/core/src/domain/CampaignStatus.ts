import { Either, Schema } from "effect"

/** A campaign's stored status. */
export const CampaignStatus = Schema.Literal("draft", "scheduled", "sending", "paused", "sent", "cancelled")
/** @since 0.1.0 */
export type CampaignStatus = typeof CampaignStatus.Type

/** What moves a campaign between statuses. */
export type CampaignAction = "schedule" | "unschedule" | "send" | "pause" | "resume" | "complete" | "cancel"

/**
 * The campaign state machine: for each action, the next status from each status that allows it. A status missing
 * from an action's row refuses the action. Pause and resume are idempotent.
 */
export const campaignTransitions: {
  readonly [A in CampaignAction]: Partial<Record<CampaignStatus, CampaignStatus>>
} = {
  schedule: { draft: "scheduled", scheduled: "scheduled" },
  unschedule: { draft: "draft", scheduled: "draft" },
  send: { draft: "sending", scheduled: "sending" },
  pause: { sending: "paused", paused: "paused" },
  resume: { paused: "sending", sending: "sending" },
  complete: { sending: "sent" },
  cancel: { sending: "cancelled", paused: "cancelled", scheduled: "cancelled" }
}

/** The status after `action`, or the status that refused it. */
export const nextCampaignStatus = (
  status: CampaignStatus,
  action: CampaignAction
): Either.Either<CampaignStatus, CampaignStatus> => {
  const next = campaignTransitions[action][status]
  return next === undefined ? Either.left(status) : Either.right(next)
}

/** True while a campaign can still be edited (draft, with or without a schedule). */
export const isEditable = (status: CampaignStatus): boolean => status === "draft" || status === "scheduled"
