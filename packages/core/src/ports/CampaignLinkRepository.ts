import { Context, type Effect, type Option } from "effect"
import type { CampaignId, CampaignLinkId } from "../domain/Ids.js"

/** A tracked link of a campaign with its click counters. */
export interface CampaignLink {
  readonly id: CampaignLinkId
  readonly campaignId: CampaignId
  readonly url: string
  readonly clickCount: number
  readonly uniqueClickCount: number
}

/** Storage of tracked links, one row per distinct URL of a campaign. */
export class CampaignLinkRepository extends Context.Tag("@mailroom/CampaignLinkRepository")<CampaignLinkRepository, {
  /** The links of the campaign with these URLs, creating missing ones. */
  readonly ensure: (campaignId: CampaignId, urls: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CampaignLink>>
  readonly findById: (id: CampaignLinkId) => Effect.Effect<Option.Option<CampaignLink>>
}>() {}
