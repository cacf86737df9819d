import { SqlClient } from "@effect/sql"
import {
  Segment,
  type SegmentFields,
  SegmentId,
  SegmentRepository,
  type SegmentTag,
  type SegmentUuid,
  TagId
} from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../columns.js"
import { nameKey } from "../nameKey.js"
import { tagNameOrder } from "../tagNameOrder.js"
import { containsPattern, selectPage } from "../selectPage.js"

const SegmentRow = Schema.Struct({
  ...Segment.fields,
  allPositiveTagsRequired: SqlBoolean,
  allNegativeTagsRequired: SqlBoolean
}).omit("positiveTags", "negativeTags")

const SegmentTagRow = Schema.Struct({ segmentId: SegmentId, tagId: TagId, name: Schema.String, positive: SqlBoolean })

/** SegmentRepository over SqlClient; a segment's tags live in segment_tags and are read with their current names. */
export const SqlSegmentRepository = Layer.effect(
  SegmentRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeRows = Schema.decodeUnknown(Schema.Array(SegmentRow))
    const decodeTags = Schema.decodeUnknown(Schema.Array(SegmentTagRow))

    /** Turns segment rows into segments, loading all their tags in one query. */
    const withTags = (rows: ReadonlyArray<typeof SegmentRow.Type>) =>
      Effect.gen(function*() {
        if (rows.length === 0) return []
        const tags = yield* decodeTags(
          yield* sql`SELECT st.segment_id, st.tag_id, st.positive, t.name FROM segment_tags st
                     JOIN tags t ON t.id = st.tag_id
                     WHERE st.segment_id IN ${sql.in(rows.map((row) => row.id))} ORDER BY ${sql.literal(tagNameOrder(sql, "t"))}`
        )
        const of = (id: number, positive: boolean): Array<SegmentTag> =>
          tags.filter((tag) => tag.segmentId === id && tag.positive === positive).map((tag) => ({
            id: tag.tagId,
            name: tag.name
          }))
        return rows.map((row) => new Segment({ ...row, positiveTags: of(row.id, true), negativeTags: of(row.id, false) }, true))
      })

    const load = (rows: ReadonlyArray<unknown>) =>
      Effect.flatMap(decodeRows(rows), withTags).pipe(Effect.map((segments) => Option.fromNullable(segments[0])))

    const writeTags = (id: number, fields: SegmentFields) =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM segment_tags WHERE segment_id = ${id}`
        const rows = [
          ...fields.positiveTagIds.map((tagId) => ({ segmentId: id, tagId, positive: 1 })),
          ...fields.negativeTagIds.map((tagId) => ({ segmentId: id, tagId, positive: 0 }))
        ]
        if (rows.length > 0) yield* sql`INSERT INTO segment_tags ${sql.insert(rows)}`
      })

    const columns = (fields: SegmentFields) => ({
      name: fields.name,
      nameKey: nameKey(fields.name),
      allPositiveTagsRequired: fields.allPositiveTagsRequired ? 1 : 0,
      allNegativeTagsRequired: fields.allNegativeTagsRequired ? 1 : 0,
      updatedAt: fields.updatedAt.toISOString()
    })

    return SegmentRepository.of({
      insert: (segment) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ readonly id: number }>`INSERT INTO segments ${
            sql.insert({
              ...columns(segment),
              uuid: segment.uuid,
              emailListId: segment.emailListId,
              createdAt: segment.createdAt.toISOString()
            })
          } RETURNING id`
          yield* writeTags(row!.id, segment)
          return Option.getOrThrow(yield* load(yield* sql`SELECT * FROM segments WHERE id = ${row!.id}`))
        }).pipe(Effect.orDie),
      update: (id, fields) =>
        Effect.gen(function*() {
          const updated = yield* sql`UPDATE segments SET ${sql.update(columns(fields))} WHERE id = ${id} RETURNING id`
          if (updated.length === 0) return Option.none()
          yield* writeTags(id, fields)
          return yield* load(yield* sql`SELECT * FROM segments WHERE id = ${id}`)
        }).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM segments WHERE id = ${id}`, load).pipe(Effect.orDie),
      findByUuid: (uuid: SegmentUuid) =>
        Effect.flatMap(sql`SELECT * FROM segments WHERE uuid = ${uuid}`, load).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM segment_tags WHERE segment_id = ${id}`
          return (yield* sql`DELETE FROM segments WHERE id = ${id} RETURNING id`).length > 0
        }).pipe(Effect.orDie),
      list: (emailListId, query) =>
        selectPage(sql, {
          table: "segments",
          scope: sql`email_list_id = ${emailListId}`,
          sorts: { name: "name_key", created_at: "created_at" },
          filters: { search: (value) => sql`name_key LIKE ${containsPattern(value)} ESCAPE '\\'` }
        }, query, SegmentRow).pipe(
          Effect.flatMap((page) => Effect.map(withTags(page.items), (items) => ({ items, total: page.total }))),
          Effect.orDie
        )
    })
  })
)
