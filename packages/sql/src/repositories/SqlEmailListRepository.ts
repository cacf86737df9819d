import { SqlClient, SqlSchema } from "@effect/sql"
import { EmailList, EmailListId, EmailListRepository, EmailListUuid } from "@mailroom/core"
import { Effect, Layer, Schema } from "effect"
import { deleteById } from "../deleteById.js"
import { LIST_COUNTS } from "../listCounts.js"
import { countedSource } from "../sharedCounters.js"
import { withNameKey } from "../nameKey.js"
import { SqlBoolean } from "../columns.js"
import { containsPattern, selectPage } from "../selectPage.js"

/** An email_lists row: the entity's fields with booleans stored as 1/0. */
const EmailListRow = Schema.Struct({
  ...EmailList.fields,
  campaignsFeedEnabled: SqlBoolean,
  allowFormSubscriptions: SqlBoolean,
  requiresConfirmation: SqlBoolean,
  reportCampaignSent: SqlBoolean,
  reportCampaignSummary: SqlBoolean,
  reportEmailListSummary: SqlBoolean
})

/** A row read with its subscribed count: the counter plus the changes not folded into it yet (`countedSubscribers`). */
const CountedRow = Schema.Struct({
  ...EmailListRow.fields,
  countedSubscribers: Schema.optional(Schema.Union(Schema.Number, Schema.NumberFromString))
})

const FromRow = Schema.transform(CountedRow, Schema.typeSchema(EmailList), {
  strict: false,
  decode: ({ countedSubscribers, ...row }) =>
    new EmailList({ ...row, activeSubscribersCount: countedSubscribers ?? row.activeSubscribersCount }, true),
  encode: (list) => list
})

const Settings = EmailListRow.omit("id", "uuid", "activeSubscribersCount", "emailListSummarySentAt", "createdAt")

/** EmailListRepository over SqlClient. */
export const SqlEmailListRepository = Layer.effect(
  EmailListRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** The lists with their subscribed counts, under the table's name. */
    const counted = countedSource(sql, LIST_COUNTS, { counted_subscribers: ["subscribed"] })
    const insert = SqlSchema.single({
      Request: EmailListRow.omit("id"),
      Result: FromRow,
      execute: (row) => sql`INSERT INTO email_lists ${sql.insert(withNameKey(row))} RETURNING *`
    })
    const update = SqlSchema.findOne({
      Request: Schema.Struct({ id: EmailListId, row: Settings }),
      Result: FromRow,
      execute: ({ id, row }) =>
        sql`UPDATE email_lists SET ${sql.update(withNameKey(row))} WHERE id = ${id}`.pipe(
          Effect.zipRight(sql`SELECT * FROM ${counted} WHERE id = ${id}`)
        )
    })
    const findById = SqlSchema.findOne({
      Request: EmailListId,
      Result: FromRow,
      execute: (id) => sql`SELECT * FROM ${counted} WHERE id = ${id}`
    })
    const findByUuid = SqlSchema.findOne({
      Request: EmailListUuid,
      Result: FromRow,
      execute: (uuid) => sql`SELECT * FROM ${counted} WHERE uuid = ${uuid}`
    })
    return EmailListRepository.of({
      insert: (list) => insert(list).pipe(Effect.orDie),
      update: (id, settings) => update({ id, row: settings }).pipe(Effect.orDie),
      findById: (id) => findById(id).pipe(Effect.orDie),
      findByUuid: (uuid) => findByUuid(uuid).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM subscriber_tags WHERE subscriber_id IN (SELECT id FROM subscribers WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM campaign_clicks WHERE send_id IN (SELECT s.id FROM sends s JOIN subscribers b ON b.id = s.subscriber_id WHERE b.email_list_id = ${id})`
          yield* sql`DELETE FROM sends WHERE subscriber_id IN (SELECT id FROM subscribers WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM subscribers WHERE email_list_id = ${id}`
          yield* sql`DELETE FROM email_list_count_changes WHERE email_list_id = ${id}`
          yield* sql`DELETE FROM segment_tags WHERE segment_id IN (SELECT id FROM segments WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM segments WHERE email_list_id = ${id}`
          yield* sql`DELETE FROM tag_count_changes WHERE tag_id IN (SELECT id FROM tags WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM tags WHERE email_list_id = ${id}`
          yield* sql`UPDATE campaigns SET email_list_id = NULL, segment_id = NULL WHERE email_list_id = ${id}`
          yield* sql`DELETE FROM subscriber_import_parts WHERE import_id IN (SELECT id FROM subscriber_imports WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM subscriber_import_errors WHERE import_id IN (SELECT id FROM subscriber_imports WHERE email_list_id = ${id})`
          yield* sql`DELETE FROM subscriber_imports WHERE email_list_id = ${id}`
          return yield* deleteById(sql, "email_lists", id)
        }).pipe(Effect.orDie),
      list: (query) =>
        selectPage(sql, {
          table: "email_lists",
          source: counted,
          sorts: {
            name: "name_key",
            created_at: "created_at",
            active_subscribers_count: "counted_subscribers"
          },
          filters: {
            search: (value) => sql`name_key LIKE ${containsPattern(value)} ESCAPE '\\'`,
            name: (value) => sql`name = ${value}`
          }
        }, query, FromRow)
    })
  })
)
