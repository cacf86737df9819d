import { HttpApiBuilder } from "@effect/platform"
import { EngagementReports } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toDailyStatistic, toTimelinePoint } from "../resources/ActivityResources.js"

/** Handlers of the engagement charts. */
export const ActivityLive = HttpApiBuilder.group(Api, "activity", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* EngagementReports
    return handlers
      .handle("daily", ({ urlParams }) => Effect.map(reports.daily(urlParams.days), (points) => ({ data: points.map(toDailyStatistic) })))
      .handle("campaignTimeline", ({ path }) =>
        Effect.map(reports.campaignTimeline(path.campaign), ({ bucket, points }) => ({
          data: { bucket, points: points.map(toTimelinePoint) }
        })))
  }))
