import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { Data } from "../Collection.js"
import { CampaignTimelineResource, DailyStatisticResource } from "../resources/ActivityResources.js"

const CampaignPath = Schema.Struct({ campaign: Schema.String.annotations({ description: "The campaign's uuid." }) })
const DailyParams = Schema.Struct({
  days: Schema.optional(Schema.String.annotations({ description: "How many days, today included: 1 to 365 (default 30)." }))
})

/** Engagement over time, for charts: every mail per day, and one campaign per hour or day. */
export class ActivityGroup extends HttpApiGroup.make("activity")
  .add(
    HttpApiEndpoint.get("daily", "/statistics/daily")
      .annotate(OpenApi.Summary, "Daily sends, opens and clicks")
      .setUrlParams(DailyParams)
      .addSuccess(Data(Schema.Array(DailyStatisticResource)))
      .addError(InvalidQueryError)
      .annotate(
        OpenApi.Description,
        "One entry per UTC day for the last `days` days ending today, oldest first, zero-filled, over every mail " +
          "(campaign, automation, transactional). Opens and clicks count each mail once, on the day of its first open or click."
      )
  )
  .add(
    HttpApiEndpoint.get("campaignTimeline", "/campaigns/:campaign/timeline")
      .annotate(OpenApi.Summary, "A campaign's opens and clicks over time")
      .setPath(CampaignPath)
      .addSuccess(Data(CampaignTimelineResource))
      .addError(NotFoundError)
      .annotate(
        OpenApi.Description,
        "From the hour of the campaign's first mail to now, zero-filled: hourly points when that spans at most 72 hours, " +
          "else daily (UTC). No points before anything was sent. Opens and clicks count each mail once, at its first open or click."
      )
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Engagement over time, for charts.")
{}
