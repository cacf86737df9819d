import type { SqlClient, Statement } from "@effect/sql"
import { BounceType, type TrackingRepository } from "@mailroom/core"
import { Effect, Schema } from "effect"
import { rowsDecoder } from "../rowsDecoder.js"
import { containsPattern, orderClause, selectRows } from "../selectPage.js"

const OpenRow = Schema.Struct({
  subscriberId: Schema.Number,
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  openCount: Schema.Number,
  firstOpenedAt: Schema.Date,
  lastOpenedAt: Schema.Date
})
const ClickRow = Schema.Struct({ id: Schema.Number, url: Schema.String, clickCount: Schema.Number, uniqueClickCount: Schema.Number })
const UnsubscribeRow = Schema.Struct({
  campaignId: Schema.Number,
  subscriberId: Schema.Number,
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  createdAt: Schema.Date
})
const BounceRow = Schema.Struct({
  subscriberUuid: Schema.NullOr(Schema.String),
  subscriberEmail: Schema.String,
  subscriberEmailListUuid: Schema.NullOr(Schema.String),
  type: BounceType,
  bounceCount: Schema.Number,
  createdAt: Schema.Date
})

/** Where a campaign-shaped mail's statistics are stored. */
export interface MailTables {
  /** The column naming the mail in sends, bounces, clicks, links and unsubscribes (`campaign_id`). */
  readonly mailColumn: string
  /** Its tracked links (`campaign_links`). */
  readonly links: string
  /** Its clicks per send and link (`campaign_clicks`). */
  readonly clicks: string
  /** Its unsubscribes (`campaign_unsubscribes`). */
  readonly unsubscribes: string
}

/** The statistics pages of a campaign-shaped mail, by its id. */
type Statistics<Id> = {
  readonly [K in "opens" | "clicks" | "unsubscribes" | "bounces"]: (
    id: Id,
    query: Parameters<TrackingRepository["Type"][K]>[1]
  ) => ReturnType<TrackingRepository["Type"][K]>
}

/** A campaign-shaped mail's opens, clicks, unsubscribes and bounces as pages (a campaign's, an automation mail's). */
export const mailStatistics = <Id extends number>(sql: SqlClient.SqlClient, tables: MailTables): Statistics<Id> => {
  const mail = sql.literal(tables.mailColumn)

  /** One page of `source` (a subquery with an `id` column) and its total, decoded with `Row`. */
  const page = <A, I, S extends string>(
    source: Statement.Fragment,
    conditions: ReadonlyArray<Statement.Fragment>,
    sorts: { readonly [K in S]: string },
    query: { readonly page: number; readonly perPage: number; readonly sort: ReadonlyArray<{ readonly field: S; readonly direction: "asc" | "desc" }> },
    Row: Schema.Schema<A, I>
  ) =>
    Effect.gen(function*() {
      const { rows, total } = yield* selectRows(sql, source, conditions, orderClause(sorts, [], query.sort), query)
      return { items: yield* rowsDecoder(Row)(rows), total }
    }).pipe(Effect.orDie)
  const search = (value: string | undefined, column: string) =>
    value === undefined ? [] : [sql`lower(${sql.literal(column)}) LIKE ${containsPattern(value)} ESCAPE '\\'`]

  return {
    opens: (id, query) =>
      page(
        sql`(SELECT s.id, s.subscriber_id, sub.uuid AS subscriber_uuid, s.email AS subscriber_email, s.open_count,
                    s.first_opened_at, s.last_opened_at
             FROM sends s LEFT JOIN subscribers sub ON sub.id = s.subscriber_id
             WHERE s.${mail} = ${id} AND s.open_count > 0) opens`,
        search(query.filters.search, "subscriber_email"),
        { email: "subscriber_email", open_count: "open_count", first_opened_at: "first_opened_at", last_opened_at: "last_opened_at" },
        query,
        OpenRow
      ),
    clicks: (id, query) =>
      page(
        sql`(SELECT id, url, click_count, unique_click_count FROM ${sql.literal(tables.links)} WHERE ${mail} = ${id}) clicks`,
        search(query.filters.search, "url"),
        { unique_click_count: "unique_click_count", click_count: "click_count" },
        query,
        ClickRow
      ),
    unsubscribes: (id, query) =>
      page(
        sql`(SELECT u.id, u.${mail} AS campaign_id, u.subscriber_id, sub.uuid AS subscriber_uuid,
                    u.email AS subscriber_email, u.created_at, sub.first_name, sub.last_name
             FROM ${sql.literal(tables.unsubscribes)} u LEFT JOIN subscribers sub ON sub.id = u.subscriber_id
             WHERE u.${mail} = ${id}) unsubscribes`,
        query.filters.search === undefined ? [] : [sql.or([
          ...search(query.filters.search, "subscriber_email"),
          ...search(query.filters.search, "first_name"),
          ...search(query.filters.search, "last_name")
        ])],
        { created_at: "created_at" },
        query,
        UnsubscribeRow
      ),
    bounces: (id, query) =>
      page(
        sql`(SELECT MIN(b.id) AS id, MAX(sub.uuid) AS subscriber_uuid, b.email AS subscriber_email,
                    MAX(l.uuid) AS subscriber_email_list_uuid, b.type, CAST(count(*) AS INTEGER) AS bounce_count,
                    MIN(b.created_at) AS created_at
             FROM bounces b LEFT JOIN subscribers sub ON sub.id = b.subscriber_id
             LEFT JOIN email_lists l ON l.id = sub.email_list_id
             WHERE b.${mail} = ${id} GROUP BY b.email, b.type) bounces`,
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
  }
}
