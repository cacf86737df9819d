import { Effect } from "effect"
import type { CampaignId } from "../domain/Ids.js"
import { InvalidQuery } from "../errors/InvalidQuery.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EngagementHistory, type PeriodActivity } from "../ports/EngagementHistory.js"
import { findByRef } from "./lookup.js"
import { now } from "./now.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Longest span of a campaign timeline shown in hours; longer ones are shown in days. */
const HOURLY_SPAN = 72 * HOUR

/** One point of a chart: the start of its period and the counts in it. */
export interface ActivityPoint {
  readonly at: Date
  readonly sent: number
  readonly opens: number
  readonly clicks: number
}

/** The start of the UTC period an ISO prefix (`YYYY-MM-DD` or `YYYY-MM-DDTHH`) names. */
const startOf = (period: string): Date => new Date(period.length === 10 ? `${period}T00:00:00.000Z` : `${period}:00:00.000Z`)

/** Every period from `first` to `last` (period starts), `step` apart, with the counts found (zero elsewhere). */
const filled = (first: number, last: number, step: number, length: number, found: ReadonlyArray<PeriodActivity>) => {
  const byPeriod = new Map(found.map((row) => [row.period, row]))
  const points: Array<ActivityPoint> = []
  for (let at = first; at <= last; at += step) {
    const row = byPeriod.get(new Date(at).toISOString().slice(0, length))
    points.push({ at: new Date(at), sent: row?.sent ?? 0, opens: row?.opens ?? 0, clicks: row?.clicks ?? 0 })
  }
  return points
}

/** Hourly rows added up per day. */
const perDay = (hourly: ReadonlyArray<PeriodActivity>): ReadonlyArray<PeriodActivity> => {
  const days = new Map<string, PeriodActivity>()
  for (const row of hourly) {
    const day = row.period.slice(0, 10)
    const sum = days.get(day)
    days.set(day, sum === undefined ? { ...row, period: day } : {
      period: day,
      sent: sum.sent + row.sent,
      opens: sum.opens + row.opens,
      clicks: sum.clicks + row.clicks
    })
  }
  return [...days.values()]
}

/** `days` of the daily statistics: a whole number from 1 to 365, 30 when absent. */
const parseDays = (text: string | undefined): Effect.Effect<number, InvalidQuery> => {
  if (text === undefined) return Effect.succeed(30)
  const days = /^\s*\d{1,3}\s*$/.test(text) ? Number(text) : NaN
  return days >= 1 && days <= 365
    ? Effect.succeed(days)
    : Effect.fail(new InvalidQuery({ message: "The days parameter must be a whole number from 1 to 365." }))
}

/** Engagement charts: sends, opens and clicks per day over every mail, and one campaign's opens and clicks over time. */
export class EngagementReports extends Effect.Service<EngagementReports>()("@mailroom/EngagementReports", {
  effect: Effect.gen(function*() {
    const history = yield* EngagementHistory
    const campaigns = yield* CampaignRepository

    /** One point per UTC day for the last `days` days (today included), oldest first, zero-filled. */
    const daily = Effect.fn("EngagementReports.daily")(function*(daysParam: string | undefined) {
      const days = yield* parseDays(daysParam)
      const today = startOf((yield* now).toISOString().slice(0, 10)).getTime()
      const first = today - (days - 1) * DAY
      return filled(first, today, DAY, 10, yield* history.daily(new Date(first)))
    })

    /**
     * A campaign's opens and clicks from the hour of its first mail to now: hourly when that spans at most 72 hours,
     * else daily; no points before its first mail went out.
     */
    const campaignTimeline = Effect.fn("EngagementReports.campaignTimeline")(function*(ref: string) {
      const campaign = yield* findByRef("Campaign", ref, campaigns.findByUuid, campaigns.findById)
      const hourly = yield* history.campaignHourly(campaign.id as CampaignId)
      const firstSent = hourly.find((row) => row.sent > 0)
      if (firstSent === undefined) return { bucket: "hour" as const, points: [] }
      const start = startOf(firstSent.period).getTime()
      const last = Math.max((yield* now).getTime(), startOf(hourly[hourly.length - 1]!.period).getTime())
      if (last - start <= HOURLY_SPAN) {
        return { bucket: "hour" as const, points: filled(start, last - (last % HOUR), HOUR, 13, hourly) }
      }
      return { bucket: "day" as const, points: filled(start - (start % DAY), last - (last % DAY), DAY, 10, perDay(hourly)) }
    })

    return { daily, campaignTimeline } as const
  })
}) {}
