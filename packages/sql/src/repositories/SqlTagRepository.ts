import { SqlClient, SqlSchema } from "@effect/sql"
import { EmailListId, newUuid, Tag, TagId, TagRepository, TagUuid, tagKey } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../columns.js"
import { TAG_COUNTS } from "../moveTagCounts.js"
import { withNameKey } from "../nameKey.js"
import { tagNameOrder } from "../tagNameOrder.js"
import { countedSource } from "../sharedCounters.js"
import { containsPattern, selectPage } from "../selectPage.js"

const TagRow = Schema.Struct({ ...Tag.fields, visibleInPreferences: SqlBoolean })

/** A row read with its subscriber count: the counter plus the changes not folded into it yet (`countedSubscribers`). */
const CountedRow = Schema.Struct({
  ...TagRow.fields,
  countedSubscribers: Schema.optional(Schema.Union(Schema.Number, Schema.NumberFromString))
})

/** A reference to a tag (TagRef), as read from the table. */
const TagRefRow = Schema.Struct({ id: TagId, name: Schema.String, emailListId: EmailListId })

const FromRow = Schema.transform(CountedRow, Schema.typeSchema(Tag), {
  strict: false,
  decode: ({ countedSubscribers, ...row }) => new Tag({ ...row, subscriberCount: countedSubscribers ?? row.subscriberCount }, true),
  encode: (tag) => tag
})

/** TagRepository over SqlClient. A unique (list, name_key) index makes concurrent creates return one tag. */
export const SqlTagRepository = Layer.effect(
  TagRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** The tags with their subscriber counts, under the table's name. */
    const tags = countedSource(sql, TAG_COUNTS, { counted_subscribers: ["subscribers"] })
    const insert = SqlSchema.findOne({
      Request: TagRow.omit("id", "subscriberCount"),
      Result: FromRow,
      execute: (row) => sql`INSERT INTO tags ${sql.insert(withNameKey(row))} ON CONFLICT DO NOTHING RETURNING *`
    })
    const byNames = SqlSchema.findAll({
      Request: Schema.Struct({ emailListId: EmailListId, keys: Schema.Array(Schema.String) }),
      Result: FromRow,
      execute: ({ emailListId, keys }) =>
        sql`SELECT * FROM ${tags} WHERE email_list_id = ${emailListId} AND name_key IN ${sql.in(keys)}`
    })
    /** References to the list's tags with these name keys: the plain table, no counts to sum. */
    const refsByNames = SqlSchema.findAll({
      Request: Schema.Struct({ emailListId: EmailListId, keys: Schema.Array(Schema.String) }),
      Result: TagRefRow,
      execute: ({ emailListId, keys }) =>
        sql`SELECT id, name, email_list_id FROM tags WHERE email_list_id = ${emailListId} AND name_key IN ${sql.in(keys)}`
    })
    const byRefs = SqlSchema.findAll({
      Request: Schema.Struct({ emailListId: EmailListId, refs: Schema.Array(Schema.String) }),
      Result: FromRow,
      execute: ({ emailListId, refs }) =>
        sql`SELECT * FROM ${tags} WHERE email_list_id = ${emailListId}
            AND (name_key IN ${sql.in(refs)} OR uuid IN ${sql.in(refs)}) ORDER BY ${sql.literal(tagNameOrder(sql, "tags"))}, id`
    })
    const findById = SqlSchema.findOne({
      Request: TagId,
      Result: FromRow,
      execute: (id) => sql`SELECT * FROM ${tags} WHERE id = ${id}`
    })
    const findByUuid = SqlSchema.findOne({
      Request: TagUuid,
      Result: FromRow,
      execute: (uuid) => sql`SELECT * FROM ${tags} WHERE uuid = ${uuid}`
    })
    const update = SqlSchema.findOne({
      Request: Schema.Struct({
        id: TagId,
        row: Schema.Struct({ name: Schema.String, visibleInPreferences: SqlBoolean, updatedAt: Tag.fields.updatedAt })
      }),
      Result: FromRow,
      execute: ({ id, row }) =>
        sql`UPDATE tags SET ${sql.update(withNameKey(row))} WHERE id = ${id}`.pipe(Effect.zipRight(sql`SELECT * FROM ${tags} WHERE id = ${id}`))
    })

    return TagRepository.of({
      insertOrGet: (tag) =>
        insert(tag).pipe(
          Effect.flatMap(Option.match({
            onSome: (created) => Effect.succeed({ tag: created, created: true }),
            onNone: () =>
              Effect.map(byNames({ emailListId: tag.emailListId, keys: [tagKey(tag.name)] }), (found) => ({
                tag: found[0]!,
                created: false
              }))
          })),
          Effect.orDie
        ),
      // the usual case (a sign-up form's tags exist) is one look-up; missing tags are inserted, then all read again
      ensure: (emailListId, names, type, at) =>
        Effect.gen(function*() {
          if (names.length === 0) return []
          const keys = [...new Set(names.map(tagKey))]
          const found = yield* refsByNames({ emailListId, keys })
          if (found.length === keys.length) return found
          const have = new Set(found.map((tag) => tagKey(tag.name)))
          // the first name given for each missing key, as one insert of them all kept it
          const missing = new Map<string, string>()
          for (const name of names) {
            const key = tagKey(name)
            if (!have.has(key) && !missing.has(key)) missing.set(key, name)
          }
          const rows = [...missing.values()].map((name) => ({
            uuid: newUuid(),
            emailListId,
            name: name.trim(),
            nameKey: tagKey(name),
            type,
            visibleInPreferences: 0,
            subscriberCount: 0,
            createdAt: at.toISOString(),
            updatedAt: at.toISOString()
          }))
          yield* sql`INSERT INTO tags ${sql.insert(rows)} ON CONFLICT DO NOTHING`
          return yield* refsByNames({ emailListId, keys })
        }).pipe(Effect.orDie),
      refsByName: (emailListId, names) =>
        names.length === 0 ? Effect.succeed([]) : refsByNames({ emailListId, keys: [...new Set(names.map(tagKey))] }).pipe(Effect.orDie),
      update: (id, changes) => update({ id, row: changes }).pipe(Effect.orDie),
      findById: (id) => findById(id).pipe(Effect.orDie),
      findByUuid: (uuid) => findByUuid(uuid).pipe(Effect.orDie),
      findByRefs: (emailListId, refs) =>
        refs.length === 0 ? Effect.succeed([]) : byRefs({ emailListId, refs: refs.map(tagKey) }).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM subscriber_tags WHERE tag_id = ${id}`
          yield* sql`DELETE FROM segment_tags WHERE tag_id = ${id}`
          yield* sql`DELETE FROM tag_count_changes WHERE tag_id = ${id}`
          const deleted = yield* sql`DELETE FROM tags WHERE id = ${id} RETURNING id`
          return deleted.length > 0
        }).pipe(Effect.orDie),
      list: (emailListId, query) =>
        selectPage(sql, {
          table: "tags",
          source: tags,
          scope: sql`email_list_id = ${emailListId}`,
          sorts: {
            name: "name_key",
            updated_at: "updated_at",
            subscriber_count: "counted_subscribers",
            visible_in_preferences: "visible_in_preferences"
          },
          filters: {
            search: (value) => sql`name_key LIKE ${containsPattern(value)} ESCAPE '\\'`,
            type: (value) => (value === "default" || value === "mailcoach" ? sql`type = ${value}` : sql`1 = 1`)
          }
        }, query, FromRow)
    })
  })
)
