import { SqlClient } from "@effect/sql"
import { type CampaignId, TrackingRepository } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { type MailTables, mailStatistics } from "./mailStatistics.js"
import { recordLinkClick } from "./recordLinkClick.js"

/** Where a campaign's statistics are stored. */
const campaignTables: MailTables = {
  mailColumn: "campaign_id",
  links: "campaign_links",
  clicks: "campaign_clicks",
  unsubscribes: "campaign_unsubscribes"
}

/** TrackingRepository over SqlClient: each event is a conditional UPDATE or an INSERT … ON CONFLICT, so counts stay exact. */
export const SqlTrackingRepository = Layer.effect(
  TrackingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return TrackingRepository.of({
      recordOpen: (sendId, at, debounceMs) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          const rows = yield* sql<{ readonly openCount: number }>`UPDATE sends SET open_count = open_count + 1,
              first_opened_at = COALESCE(first_opened_at, ${stamp}), last_opened_at = ${stamp}
            WHERE id = ${sendId} AND (last_opened_at IS NULL OR last_opened_at < ${new Date(at.getTime() - debounceMs).toISOString()})
            RETURNING open_count`
          return { counted: rows.length > 0, first: Number(rows[0]?.openCount) === 1 }
        }).pipe(Effect.orDie),
      recordClick: recordLinkClick(sql, campaignTables),
      recordUnsubscribe: ({ at, campaignId, email, sendId, subscriberId }) =>
        sql`INSERT INTO campaign_unsubscribes ${
          sql.insert({ campaignId, sendId, subscriberId, email, createdAt: at.toISOString() })
        } ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      recordBounce: ({ at, automationMailId, campaignId, email, sendId, subscriberId, type }) =>
        Effect.gen(function*() {
          const earlier = sendId === null
            ? []
            : yield* sql`SELECT id FROM bounces WHERE send_id = ${sendId} LIMIT 1`
          yield* sql`INSERT INTO bounces ${sql.insert({
            campaignId,
            automationMailId: automationMailId ?? null,
            sendId,
            subscriberId,
            email,
            type,
            createdAt: at.toISOString()
          })}`
          return sendId !== null && earlier.length === 0
        }).pipe(Effect.orDie),
      softBounceStreak: (email) =>
        sql<{ readonly streak: number }>`SELECT CAST(count(*) AS INTEGER) AS streak FROM bounces b
          WHERE b.email = ${email} AND b.type = 'soft_bounce' AND b.created_at > COALESCE((
            SELECT max(s.sent_at) FROM sends s WHERE s.email = ${email} AND s.sent_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM bounces x WHERE x.send_id = s.id)), '')`.pipe(
          Effect.map((rows) => Number(rows[0]?.streak ?? 0)),
          Effect.orDie
        ),
      ...mailStatistics<CampaignId>(sql, campaignTables)
    })
  })
)
