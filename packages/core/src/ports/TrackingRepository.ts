import { Context, type Effect } from "effect"
import type { BounceQuery, ClickQuery, OpenQuery, UnsubscribeQuery } from "../domain/Collections.js"
import type { Page } from "../domain/CollectionQuery.js"
import type { BounceRow, BounceType, ClickRow, OpenRow, UnsubscribeRow } from "../domain/Feedback.js"
import type { CampaignId, CampaignLinkId, SendId } from "../domain/Ids.js"

/**
 * Engagement events. Each record method updates the send, the link and the campaign counters in one go and tells
 * whether the event was the first of its kind (so unique counts are exact under concurrency).
 */
export class TrackingRepository extends Context.Tag("@mailroom/TrackingRepository")<TrackingRepository, {
  /** Counts an open unless the send was opened in the last `debounceMs`; `first` when it is the send's first open. */
  readonly recordOpen: (sendId: SendId, at: Date, debounceMs: number) => Effect.Effect<{ readonly counted: boolean; readonly first: boolean }>
  /** Counts a click on a link; `firstForSend` and `firstForLink` tell the unique counts to bump. */
  readonly recordClick: (sendId: SendId, linkId: CampaignLinkId, at: Date) => Effect.Effect<
    { readonly firstForSend: boolean; readonly firstForLink: boolean }
  >
  /** Attributes an unsubscribe to a campaign once per subscriber; true when new. */
  readonly recordUnsubscribe: (row: {
    readonly campaignId: CampaignId
    readonly sendId: SendId
    readonly subscriberId: number
    readonly email: string
    readonly at: Date
  }) => Effect.Effect<boolean>
  /** Stores a bounce or complaint; true when it is the send's first bounce. */
  readonly recordBounce: (row: {
    readonly campaignId: CampaignId | null
    /** The automation mail of the send, when it is one's. */
    readonly automationMailId?: number | null
    readonly sendId: SendId | null
    readonly subscriberId: number | null
    readonly email: string
    readonly type: BounceType
    readonly at: Date
  }) => Effect.Effect<boolean>
  /**
   * Soft bounces of this (normalized) address since its latest mail that went out and did not bounce (the bounces'
   * own mails do not count as deliveries): how many soft bounces in a row the address has had.
   */
  readonly softBounceStreak: (email: string) => Effect.Effect<number>
  readonly opens: (campaignId: CampaignId, query: OpenQuery) => Effect.Effect<Page<OpenRow>>
  readonly clicks: (campaignId: CampaignId, query: ClickQuery) => Effect.Effect<Page<ClickRow>>
  readonly unsubscribes: (campaignId: CampaignId, query: UnsubscribeQuery) => Effect.Effect<Page<UnsubscribeRow>>
  readonly bounces: (campaignId: CampaignId, query: BounceQuery) => Effect.Effect<Page<BounceRow>>
}>() {}
