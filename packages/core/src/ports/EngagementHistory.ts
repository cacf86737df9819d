import { Context, type Effect } from "effect"
import type { CampaignId } from "../domain/Ids.js"

/**
 * Mails sent, first opens and first clicks in one period (a UTC day `YYYY-MM-DD` or hour `YYYY-MM-DDTHH`). Opens and
 * clicks are counted once per mail, at its first open or click: the store keeps those times, not every event.
 */
export interface PeriodActivity {
  readonly period: string
  readonly sent: number
  readonly opens: number
  readonly clicks: number
}

/** Engagement over time, aggregated in the store (one GROUP BY per question, over indexes of the sends). */
export class EngagementHistory extends Context.Tag("@mailroom/EngagementHistory")<EngagementHistory, {
  /** Per UTC day from `since` on, over every kind of mail (campaign, automation, transactional); empty days left out. */
  readonly daily: (since: Date) => Effect.Effect<ReadonlyArray<PeriodActivity>>
  /** Per UTC hour, over one campaign's mails; empty hours left out. */
  readonly campaignHourly: (campaignId: CampaignId) => Effect.Effect<ReadonlyArray<PeriodActivity>>
}>() {}
