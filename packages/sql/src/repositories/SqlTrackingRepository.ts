import { SqlClient, type Statement } from "@effect/sql"
import { BounceType, TrackingRepository } from "@mailroom/core"
import { Effect, Layer, Schema } from "effect"
import { containsPattern, orderClause } from "../selectPage.js"

const Time = Schema.Date
const OpenRow = Schema.Struct({
  subscriberId: Schema.Number,
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  openCount: Schema.Number,
  firstOpenedAt: Time,
  lastOpenedAt: Time
})
const ClickRow = Schema.Struct({ id: Schema.Number, url: Schema.String, clickCount: Schema.Number, uniqueClickCount: Schema.Number })
const UnsubscribeRow = Schema.Struct({
  campaignId: Schema.Number,
  subscriberId: Schema.Number,
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  createdAt: Time
})
const BounceRow = Schema.Struct({
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  subscriberEmailListUuid: Schema.NullOr(Schema.String),
  type: BounceType,
  bounceCount: Schema.Number,
  createdAt: Time
})

/** TrackingRepository over SqlClient: each event is a conditional UPDATE or an INSERT … ON CONFLICT, so counts stay exact. */
export const SqlTrackingRepository = Layer.effect(
  TrackingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** One page of `source` (a subquery with an `id` column) and its total, decoded with `Row`. */
    const page = <A, I, S extends string>(
      source: Statement.Fragment,
      conditions: ReadonlyArray<Statement.Fragment>,
      sorts: { readonly [K in S]: string },
      query: { readonly page: number; readonly perPage: number; readonly sort: ReadonlyArray<{ readonly field: S; readonly direction: "asc" | "desc" }> },
      Row: Schema.Schema<A, I>
    ) =>
      Effect.gen(function*() {
        const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.and(conditions)}`
        const [rows, counted] = yield* Effect.all([
          sql`SELECT * FROM ${source} ${where} ORDER BY ${sql.literal(orderClause(sorts, [], query.sort))}
              LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
          sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM ${source} ${where}`
        ])
        return { items: yield* Schema.decodeUnknown(Schema.Array(Row))(rows), total: Number(counted[0]?.total ?? 0) }
      }).pipe(Effect.orDie)
    const search = (value: string | undefined, column: string) =>
      value === undefined ? [] : [sql`lower(${sql.literal(column)}) LIKE ${containsPattern(value)} ESCAPE '\\'`]

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
      recordClick: (sendId, linkId, at) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          const send = yield* sql<{ readonly clickCount: number; readonly campaignId: number }>`UPDATE sends
            SET click_count = click_count + 1, first_clicked_at = COALESCE(first_clicked_at, ${stamp}), last_clicked_at = ${stamp}
            WHERE id = ${sendId} RETURNING click_count, campaign_id`
          const clicks = yield* sql<{ readonly clickCount: number }>`INSERT INTO campaign_clicks
              (campaign_id, send_id, link_id, click_count, created_at, updated_at)
            VALUES (${send[0]?.campaignId ?? 0}, ${sendId}, ${linkId}, 1, ${stamp}, ${stamp})
            ON CONFLICT (send_id, link_id) DO UPDATE SET click_count = campaign_clicks.click_count + 1, updated_at = ${stamp}
            RETURNING click_count`
          const firstForLink = Number(clicks[0]?.clickCount) === 1
          yield* sql`UPDATE campaign_links SET click_count = click_count + 1,
            unique_click_count = unique_click_count + ${firstForLink ? 1 : 0} WHERE id = ${linkId}`
          return { firstForSend: Number(send[0]?.clickCount) === 1, firstForLink }
        }).pipe(Effect.orDie),
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
      opens: (campaignId, query) =>
        page(
          sql`(SELECT s.id, s.subscriber_id, sub.uuid AS subscriber_uuid, s.email AS subscriber_email, s.open_count,
                      s.first_opened_at, s.last_opened_at
               FROM sends s LEFT JOIN subscribers sub ON sub.id = s.subscriber_id
               WHERE s.campaign_id = ${campaignId} AND s.open_count > 0) opens`,
          search(query.filters.search, "subscriber_email"),
          { email: "subscriber_email", open_count: "open_count", first_opened_at: "first_opened_at", last_opened_at: "last_opened_at" },
          query,
          OpenRow
        ),
      clicks: (campaignId, query) =>
        page(
          sql`(SELECT id, url, click_count, unique_click_count FROM campaign_links WHERE campaign_id = ${campaignId}) clicks`,
          search(query.filters.search, "url"),
          { unique_click_count: "unique_click_count", click_count: "click_count" },
          query,
          ClickRow
        ),
      unsubscribes: (campaignId, query) =>
        page(
          sql`(SELECT u.id, u.campaign_id, u.subscriber_id, sub.uuid AS subscriber_uuid, u.email AS subscriber_email,
                      u.created_at, sub.first_name, sub.last_name
               FROM campaign_unsubscribes u LEFT JOIN subscribers sub ON sub.id = u.subscriber_id
               WHERE u.campaign_id = ${campaignId}) unsubscribes`,
          query.filters.search === undefined ? [] : [sql.or([
            ...search(query.filters.search, "subscriber_email"),
            ...search(query.filters.search, "first_name"),
            ...search(query.filters.search, "last_name")
          ])],
          { created_at: "created_at" },
          query,
          UnsubscribeRow
        ),
      bounces: (campaignId, query) =>
        page(
          sql`(SELECT MIN(b.id) AS id, MAX(sub.uuid) AS subscriber_uuid, b.email AS subscriber_email,
                      MAX(l.uuid) AS subscriber_email_list_uuid, b.type, CAST(count(*) AS INTEGER) AS bounce_count,
                      MIN(b.created_at) AS created_at
               FROM bounces b LEFT JOIN subscribers sub ON sub.id = b.subscriber_id
               LEFT JOIN email_lists l ON l.id = sub.email_list_id
               WHERE b.campaign_id = ${campaignId} GROUP BY b.email, b.type) bounces`,
          [
            ...search(query.filters.search, "subscriber_email"),
            ...(query.filters.type !== undefined && ["bounce", "soft_bounce", "complaint"].includes(query.filters.type)
              ? [sql`type = ${query.filters.type}`]
              : [])
          ],
          { email: "subscriber_email", bounce_count: "bounce_count", created_at: "created_at" },
          query,
          BounceRow
        )
    })
  })
)
