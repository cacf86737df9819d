import { Context, type Effect, type Option } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import type { CampaignStatus } from "../domain/CampaignStatus.js"
import type { CampaignQuery } from "../domain/Collections.js"
import type { Page } from "../domain/CollectionQuery.js"
import type { CampaignId, CampaignUuid } from "../domain/Ids.js"

/** A campaign before the store has given it an id. */
export type NewCampaign = Omit<Campaign, "id">

/** The fields a client edits (everything but ids, status, counters and delivery times). */
export type CampaignContent = Omit<
  Campaign,
  | "id"
  | "uuid"
  | "status"
  | "sentToNumberOfSubscribers"
  | "openCount"
  | "uniqueOpenCount"
  | "clickCount"
  | "uniqueClickCount"
  | "unsubscribeCount"
  | "bounceCount"
  | "audienceCursor"
  | "audienceFrozenAt"
  | "sentAt"
  | "statisticsCalculatedAt"
  | "summaryMailSentAt"
  | "createdAt"
>

/** A campaign with the public ids of its list, template and segment (null when unset or deleted). */
export interface ListedCampaign {
  readonly campaign: Campaign
  readonly emailListUuid: string | null
  readonly templateUuid: string | null
  readonly segmentUuid: string | null
}

/** Engagement counters to add to a campaign. */
export type CounterDelta = Partial<Record<"openCount" | "uniqueOpenCount" | "clickCount" | "uniqueClickCount" | "unsubscribeCount" | "bounceCount", number>>

/** Storage of campaigns. Status changes are conditional on the current status, so concurrent moves cannot both win. */
export class CampaignRepository extends Context.Tag("@mailroom/CampaignRepository")<CampaignRepository, {
  readonly insert: (campaign: NewCampaign) => Effect.Effect<Campaign>
  readonly update: (id: CampaignId, content: CampaignContent & { readonly status: CampaignStatus }) => Effect.Effect<Option.Option<Campaign>>
  readonly findById: (id: CampaignId) => Effect.Effect<Option.Option<Campaign>>
  /** The campaign's status alone (cheap: delivery asks after every group of mails); none when it is gone. */
  readonly statusOf: (id: CampaignId) => Effect.Effect<Option.Option<CampaignStatus>>
  readonly findByUuid: (uuid: CampaignUuid) => Effect.Effect<Option.Option<Campaign>>
  readonly delete: (id: CampaignId) => Effect.Effect<boolean>
  readonly list: (query: CampaignQuery) => Effect.Effect<Page<ListedCampaign>>
  /** Moves the campaign to `to` (with the given fields) if its status is one of `from`; the updated campaign or none. */
  readonly transition: (
    id: CampaignId,
    from: ReadonlyArray<CampaignStatus>,
    to: CampaignStatus,
    changes?: Partial<Pick<Campaign, "sentAt" | "scheduledAt" | "audienceFrozenAt" | "sentToNumberOfSubscribers" | "fromEmail" | "fromName" | "replyToEmail" | "replyToName" | "segmentDescription" | "emailHtml" | "webviewHtml" | "updatedAt">>
  ) => Effect.Effect<Option.Option<Campaign>>
  /** Campaigns in one of these statuses (the delivery loop's work list). */
  readonly withStatus: (statuses: ReadonlyArray<CampaignStatus>) => Effect.Effect<ReadonlyArray<Campaign>>
  /** Scheduled campaigns whose time has come. */
  readonly due: (now: Date) => Effect.Effect<ReadonlyArray<Campaign>>
  readonly addCounters: (id: CampaignId, delta: CounterDelta, at: Date) => Effect.Effect<void>
  /** Adds mails that went out to `sent_to_number_of_subscribers` (delivery, in the transaction that records them). */
  readonly addSent: (id: CampaignId, count: number) => Effect.Effect<void>
  /** Records how far freezing the audience got, and when it finished (null while it goes on). */
  readonly saveAudienceProgress: (id: CampaignId, cursor: number, frozenAt: Date | null) => Effect.Effect<void>
}>() {}
