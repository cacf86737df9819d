import type { CampaignStatus } from "../domain/CampaignStatus.js"
import { type NewEvent, newEvent } from "./NewEvent.js"

/**
 * The event a campaign's status change records: `campaign.sending` when it starts (from draft or scheduled; a resume
 * from paused records none) and `campaign.sent` when it is done.
 */
export const campaignEvents = (
  campaign: { readonly id: number; readonly emailListId: number | null },
  from: ReadonlyArray<CampaignStatus>,
  to: CampaignStatus,
  at: Date
): Array<NewEvent> => {
  const starts = to === "sending" && from.every((status) => status === "draft" || status === "scheduled")
  const type = to === "sent" ? "campaign.sent" : starts ? "campaign.sending" : null
  return type === null ? [] : [newEvent(type, at, { campaignId: campaign.id, emailListId: campaign.emailListId })]
}
