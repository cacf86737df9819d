import { SqlClient } from "@effect/sql"
import {
  campaignEvents,
  Campaign,
  type CampaignContent,
  CampaignRepository,
  type CampaignSort,
  type CampaignStatus,
  type CounterDelta,
  type ListedCampaign
} from "@mailroom/core"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { insertEvents } from "../events/insertEvents.js"
import { SqlBoolean } from "../columns.js"
import { nameKey } from "../nameKey.js"
import { containsPattern, orderClause } from "../selectPage.js"

const CampaignRow = Schema.Struct({
  ...Campaign.fields,
  fields: Schema.parseJson(Campaign.fields.fields),
  utmTags: SqlBoolean,
  trackOpens: SqlBoolean,
  trackClicks: SqlBoolean,
  addSubscriberTags: SqlBoolean,
  addSubscriberLinkTags: SqlBoolean,
  disableWebview: SqlBoolean
})
const refs = {
  emailListUuid: Schema.optional(Schema.NullOr(Schema.String)),
  templateUuid: Schema.optional(Schema.NullOr(Schema.String)),
  segmentUuid: Schema.optional(Schema.NullOr(Schema.String))
}
const decodeRows = Schema.decodeUnknown(Schema.Array(Schema.Struct({ ...CampaignRow.fields, ...refs })))
const encodeColumns = Schema.encode(CampaignRow.pipe(Schema.partial))

const statuses = ["draft", "scheduled", "sending", "paused", "sent", "cancelled"]

const sorts: { readonly [K in CampaignSort]: string } = {
  name: "name_key",
  email_list_id: "email_list_id",
  unique_open_count: "unique_open_count",
  unique_click_count: "unique_click_count",
  unsubscribe_rate:
    "CASE WHEN sent_to_number_of_subscribers = 0 THEN 0 ELSE unsubscribe_count * 10000 / sent_to_number_of_subscribers END",
  sent_to_number_of_subscribers: "sent_to_number_of_subscribers",
  sent: "CASE WHEN status = 'draft' THEN '9999' ELSE COALESCE(scheduled_at, sent_at, updated_at) END"
}

const counterColumns: Record<keyof CounterDelta, string> = {
  openCount: "open_count",
  uniqueOpenCount: "unique_open_count",
  clickCount: "click_count",
  uniqueClickCount: "unique_click_count",
  unsubscribeCount: "unsubscribe_count",
  bounceCount: "bounce_count"
}

/** CampaignRepository over SqlClient; status moves are single conditional UPDATEs. */
export const SqlCampaignRepository = Layer.effect(
  CampaignRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const toCampaign = (row: typeof CampaignRow.Type) => new Campaign(row, true)
    const many = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeRows(rows), (decoded) =>
        decoded.map(({ emailListUuid: _l, segmentUuid: _s, templateUuid: _t, ...row }) => toCampaign(row)))
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(many(rows), (found) => Option.fromNullable(found[0]))
    const columns = (changes: Partial<Campaign>) =>
      Effect.map(encodeColumns(changes), (encoded) => (changes.name === undefined ? encoded : { ...encoded, nameKey: nameKey(changes.name) }))

    return CampaignRepository.of({
      insert: (campaign) =>
        Effect.gen(function*() {
          const rows = yield* sql`INSERT INTO campaigns ${sql.insert(yield* columns(campaign as Partial<Campaign>))} RETURNING *`
          return Option.getOrThrow(yield* one(rows))
        }).pipe(Effect.orDie),
      update: (id, content: CampaignContent & { readonly status: Campaign["status"] }) =>
        Effect.gen(function*() {
          const rows = yield* sql`UPDATE campaigns SET ${sql.update(yield* columns(content as Partial<Campaign>))}
                                  WHERE id = ${id} AND status IN ('draft', 'scheduled') RETURNING *`
          return yield* one(rows)
        }).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM campaigns WHERE id = ${id}`, one).pipe(Effect.orDie),
      statusOf: (id) =>
        sql<{ readonly status: CampaignStatus }>`SELECT status FROM campaigns WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.status)),
          Effect.orDie
        ),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM campaigns WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM sends WHERE campaign_id = ${id}`
          yield* sql`DELETE FROM campaign_links WHERE campaign_id = ${id}`
          return (yield* sql`DELETE FROM campaigns WHERE id = ${id} RETURNING id`).length > 0
        }).pipe(Effect.orDie),
      list: (query) =>
        Effect.gen(function*() {
          const f = query.filters
          const conditions = [
            ...(f.search === undefined ? [] : [sql`name_key LIKE ${containsPattern(f.search)} ESCAPE '\\'`]),
            ...(f.status !== undefined && statuses.includes(f.status.trim()) ? [sql`status = ${f.status.trim()}`] : []),
            ...(f.email_list_id === undefined ? [] : [sql`email_list_id = ${Number.parseInt(f.email_list_id, 10) || 0}`]),
            ...(f["emailList.uuid"] === undefined ? [] : [sql`email_list_uuid = ${f["emailList.uuid"].trim().toLowerCase()}`]),
            ...(f["contentItem.template.uuid"] === undefined
              ? []
              : [sql`template_uuid = ${f["contentItem.template.uuid"].trim().toLowerCase()}`])
          ]
          const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.and(conditions)}`
          const source = sql`(SELECT c.*, l.uuid AS email_list_uuid, t.uuid AS template_uuid, sg.uuid AS segment_uuid
                              FROM campaigns c LEFT JOIN email_lists l ON l.id = c.email_list_id
                              LEFT JOIN templates t ON t.id = c.template_id LEFT JOIN segments sg ON sg.id = c.segment_id) listed`
          const order = orderClause(sorts, ["email_list_id"], query.sort)
          const [rows, counted] = yield* Effect.all([
            sql`SELECT * FROM ${source} ${where} ORDER BY ${sql.literal(order)}
                LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
            sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM ${source} ${where}`
          ])
          const decoded = yield* decodeRows(rows)
          return {
            total: Number(counted[0]?.total ?? 0),
            items: decoded.map(({ emailListUuid, segmentUuid, templateUuid, ...row }): ListedCampaign => ({
              campaign: toCampaign(row),
              emailListUuid: emailListUuid ?? null,
              templateUuid: templateUuid ?? null,
              segmentUuid: segmentUuid ?? null
            }))
          }
        }).pipe(Effect.orDie),
      transition: (id, from, to, changes = {}) =>
        Effect.gen(function*() {
          const set = { ...(yield* columns(changes as Partial<Campaign>)), status: to }
          const moved = yield* one(yield* sql`UPDATE campaigns SET ${sql.update(set)} WHERE id = ${id} AND status IN ${sql.in(from)} RETURNING *`)
          if (Option.isSome(moved)) {
            const at = changes.updatedAt ?? new Date(yield* Clock.currentTimeMillis)
            yield* insertEvents(sql, campaignEvents(moved.value, from, to, at))
          }
          return moved
        }).pipe(Effect.orDie),
      withStatus: (wanted) => Effect.flatMap(sql`SELECT * FROM campaigns WHERE status IN ${sql.in(wanted)} ORDER BY id`, many).pipe(Effect.orDie),
      due: (now) =>
        Effect.flatMap(
          sql`SELECT * FROM campaigns WHERE status = 'scheduled' AND scheduled_at <= ${now.toISOString()} ORDER BY scheduled_at, id`,
          many
        ).pipe(Effect.orDie),
      addCounters: (id, delta, at) => {
        const parts = Object.entries(delta).filter(([, value]) => value !== undefined && value !== 0)
          .map(([key, value]) => `${counterColumns[key as keyof CounterDelta]} = ${counterColumns[key as keyof CounterDelta]} + ${Math.trunc(value!)}`)
        return parts.length === 0 ? Effect.void : sql`UPDATE campaigns SET ${sql.literal(parts.join(", "))},
          statistics_calculated_at = ${at.toISOString()} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      addSent: (id, count) =>
        count === 0 ? Effect.void : sql`UPDATE campaigns SET sent_to_number_of_subscribers = sent_to_number_of_subscribers + ${Math.trunc(count)}
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      saveAudienceProgress: (id, cursor, frozenAt) =>
        sql`UPDATE campaigns SET audience_cursor = CASE WHEN audience_cursor > ${cursor} THEN audience_cursor ELSE ${cursor} END,
            audience_frozen_at = COALESCE(audience_frozen_at, ${frozenAt?.toISOString() ?? null}) WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
