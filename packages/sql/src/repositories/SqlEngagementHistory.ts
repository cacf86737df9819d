import { SqlClient } from "@effect/sql"
import { EngagementHistory, type PeriodActivity } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** One period's counts as the client returns them (Postgres sums come back as strings). */
interface PeriodRow {
  readonly period: string
  readonly sent: number | string
  readonly opens: number | string
  readonly clicks: number | string
}

const toActivity = (rows: ReadonlyArray<PeriodRow>): ReadonlyArray<PeriodActivity> =>
  rows.map((row) => ({ period: row.period, sent: Number(row.sent), opens: Number(row.opens), clicks: Number(row.clicks) }))

/**
 * EngagementHistory over SqlClient. Timestamps are stored as fixed-width ISO text, so a period is a prefix of it
 * (`substr`, the same on both dialects) and ranges compare as text. Each part reads an index of its own: the daily
 * totals sends_sent_at, sends_first_opened and sends_first_clicked (range scans over the days asked for); a campaign's
 * the campaign's sends (sends_campaign_subscriber, sends_opened; clicks are found by `click_count > 0`, so Postgres reads
 * the campaign's rows instead of every clicked mail through sends_first_clicked).
 */
export const SqlEngagementHistory = Layer.effect(
  EngagementHistory,
  Effect.map(SqlClient.SqlClient, (sql) =>
    EngagementHistory.of({
      daily: (since) => {
        const from = since.toISOString()
        return sql<PeriodRow>`SELECT period, sum(sent) AS sent, sum(opens) AS opens, sum(clicks) AS clicks FROM (
            SELECT substr(sent_at, 1, 10) AS period, count(*) AS sent, 0 AS opens, 0 AS clicks
              FROM sends WHERE sent_at >= ${from} GROUP BY substr(sent_at, 1, 10)
            UNION ALL
            SELECT substr(first_opened_at, 1, 10), 0, count(*), 0
              FROM sends WHERE first_opened_at >= ${from} GROUP BY substr(first_opened_at, 1, 10)
            UNION ALL
            SELECT substr(first_clicked_at, 1, 10), 0, 0, count(*)
              FROM sends WHERE first_clicked_at >= ${from} GROUP BY substr(first_clicked_at, 1, 10)
          ) AS activity GROUP BY period ORDER BY period`.pipe(Effect.map(toActivity), Effect.orDie)
      },
      campaignHourly: (campaignId) =>
        sql<PeriodRow>`SELECT period, sum(sent) AS sent, sum(opens) AS opens, sum(clicks) AS clicks FROM (
            SELECT substr(sent_at, 1, 13) AS period, count(*) AS sent, 0 AS opens, 0 AS clicks
              FROM sends WHERE campaign_id = ${campaignId} AND sent_at IS NOT NULL GROUP BY substr(sent_at, 1, 13)
            UNION ALL
            SELECT substr(first_opened_at, 1, 13), 0, count(*), 0
              FROM sends WHERE campaign_id = ${campaignId} AND open_count > 0 AND first_opened_at IS NOT NULL
              GROUP BY substr(first_opened_at, 1, 13)
            UNION ALL
            SELECT substr(first_clicked_at, 1, 13), 0, 0, count(*)
              FROM sends WHERE campaign_id = ${campaignId} AND click_count > 0 GROUP BY substr(first_clicked_at, 1, 13)
          ) AS activity WHERE period IS NOT NULL GROUP BY period ORDER BY period`.pipe(Effect.map(toActivity), Effect.orDie)
    }))
)
