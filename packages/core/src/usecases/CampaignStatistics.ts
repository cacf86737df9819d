import { Effect } from "effect"
import type { BounceQuery, ClickQuery, OpenQuery, UnsubscribeQuery } from "../domain/Collections.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { TrackingRepository } from "../ports/TrackingRepository.js"
import { findByRef } from "./lookup.js"

/** A campaign's opens, clicks, unsubscribes and bounces, as paged lists. */
export class CampaignStatistics extends Effect.Service<CampaignStatistics>()("@mailroom/CampaignStatistics", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const tracking = yield* TrackingRepository
    const find = (ref: string) => findByRef("Campaign", ref, campaigns.findByUuid, campaigns.findById)

    const opens = Effect.fn("CampaignStatistics.opens")(function*(ref: string, query: OpenQuery) {
      const campaign = yield* find(ref)
      return { campaign, page: yield* tracking.opens(campaign.id, query) }
    })
    const clicks = Effect.fn("CampaignStatistics.clicks")(function*(ref: string, query: ClickQuery) {
      const campaign = yield* find(ref)
      return { campaign, page: yield* tracking.clicks(campaign.id, query) }
    })
    const unsubscribes = Effect.fn("CampaignStatistics.unsubscribes")(function*(ref: string, query: UnsubscribeQuery) {
      const campaign = yield* find(ref)
      return { campaign, page: yield* tracking.unsubscribes(campaign.id, query) }
    })
    const bounces = Effect.fn("CampaignStatistics.bounces")(function*(ref: string, query: BounceQuery) {
      const campaign = yield* find(ref)
      return { campaign, page: yield* tracking.bounces(campaign.id, query) }
    })

    return { opens, clicks, unsubscribes, bounces } as const
  })
}) {}
