import { type ActivityPoint, formatTimestamp } from "@mailroom/core"
import { Schema } from "effect"

const Count = Schema.Int.pipe(Schema.nonNegative())

/** One UTC day of the daily statistics. */
export const DailyStatisticResource = Schema.Struct({
  date: Schema.String.annotations({ description: "The UTC day, `YYYY-MM-DD`." }),
  sent: Count.annotations({ description: "Mails sent that day (campaign, automation and transactional)." }),
  opens: Count.annotations({ description: "Mails first opened that day (each mail counts once)." }),
  clicks: Count.annotations({ description: "Mails first clicked that day (each mail counts once)." })
}).annotations({ identifier: "DailyStatistic" })

/** One point of a campaign's timeline. */
export const TimelinePointResource = Schema.Struct({
  at: Schema.String.annotations({ description: "The start of the hour or day." }),
  sent: Count.annotations({ description: "The campaign's mails sent in it." }),
  opens: Count.annotations({ description: "The campaign's mails first opened in it (unique opens: each mail counts once)." }),
  clicks: Count.annotations({ description: "The campaign's mails first clicked in it (unique clicks: each mail counts once)." })
}).annotations({ identifier: "TimelinePoint" })

/** A campaign's opens and clicks over time. */
export const CampaignTimelineResource = Schema.Struct({
  bucket: Schema.Literal("hour", "day"),
  points: Schema.Array(TimelinePointResource)
}).annotations({ identifier: "CampaignTimeline" })

/** Renders a day of the daily statistics. */
export const toDailyStatistic = (point: ActivityPoint): typeof DailyStatisticResource.Type => ({
  date: point.at.toISOString().slice(0, 10),
  sent: point.sent,
  opens: point.opens,
  clicks: point.clicks
})

/** Renders a point of a campaign timeline. */
export const toTimelinePoint = (point: ActivityPoint): typeof TimelinePointResource.Type => ({
  at: formatTimestamp(point.at),
  sent: point.sent,
  opens: point.opens,
  clicks: point.clicks
})
