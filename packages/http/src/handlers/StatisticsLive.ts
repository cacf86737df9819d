import { HttpApiBuilder } from "@effect/platform"
import { BounceCollection, CampaignStatistics, ClickCollection, OpenCollection, Tracking, UnsubscribeCollection } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toBounceResource, toClickResource, toOpenResource, toUnsubscribeResource } from "../resources/StatisticsResources.js"
import { queryParams } from "./queryParams.js"

/** Handlers of the campaign statistics lists and of /api/feedback. */
export const StatisticsLive = HttpApiBuilder.group(Api, "statistics", (handlers) =>
  Effect.gen(function*() {
    const statistics = yield* CampaignStatistics
    const tracking = yield* Tracking
    return handlers
      .handle("opens", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(OpenCollection)
          const { page } = yield* statistics.opens(path.campaign, query)
          return yield* toCollection(page, query, toOpenResource)
        }))
      .handle("clicks", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(ClickCollection)
          const { page } = yield* statistics.clicks(path.campaign, query)
          return yield* toCollection(page, query, toClickResource)
        }))
      .handle("unsubscribes", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(UnsubscribeCollection)
          const { campaign, page } = yield* statistics.unsubscribes(path.campaign, query)
          return yield* toCollection(page, query, toUnsubscribeResource(campaign.uuid))
        }))
      .handle("bounces", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(BounceCollection)
          const { page } = yield* statistics.bounces(path.campaign, query)
          return yield* toCollection(page, query, toBounceResource)
        }))
      .handle("feedback", ({ payload }) => tracking.feedback(payload))
  }))
