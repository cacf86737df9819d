import { SqlClient, type Statement } from "@effect/sql"
import {
  deletedEvent,
  type EmailListId,
  ExtraAttributes,
  statusEvents,
  Subscriber,
  type SubscriberChanges,
  type SubscriberCriteria,
  type SubscriberId,
  SubscriberRepository,
  type SubscriberSort,
  subscriberStatus,
  type SubscriberStatus,
  TagId,
  type TagRef
} from "@mailroom/core"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { insertEvents } from "../events/insertEvents.js"
import { atomically, insertSubscriber, insertTaggedSubscriberPg } from "../insertSubscriber.js"
import { changeTagsAtOnce } from "../changeTagsAtOnce.js"
import { changeTagsSync } from "../changeTagsSync.js"
import { linkCountDelta, tagChangeEvents } from "../tagChanges.js"
import { moveTagCounts } from "../moveTagCounts.js"
import { orderClause } from "../selectPage.js"
import { listCountExpression, shiftListCount } from "../listCounts.js"
import { searchKey } from "../subscriberColumns.js"
import { tagNameOrder } from "../tagNameOrder.js"
import { subscriberConditions } from "../subscriberConditions.js"
import { SyncWriter } from "../SyncWriter.js"

const SubscriberRow = Schema.Struct({
  ...Subscriber.fields,
  extraAttributes: Schema.parseJson(ExtraAttributes)
}).omit("tags")

/** A subscriber's tag names as a JSON array: Postgres' driver parses it, SQLite's returns its text. */
const TagNames = Schema.Union(Schema.Array(Schema.String), Schema.parseJson(Schema.Array(Schema.String)))

/** A page's row: the subscriber, its tag names and, when the list's counters answer the criteria, their total. */
const PageRow = Schema.Struct({
  ...SubscriberRow.fields,
  tagNames: TagNames,
  listTotal: Schema.optional(Schema.Union(Schema.Number, Schema.NumberFromString))
})

const TagIdRow = Schema.Struct({ tagId: TagId })


const sorts: { readonly [K in SubscriberSort]: string } = {
  id: "id",
  created_at: "created_at",
  updated_at: "updated_at",
  subscribed_at: "subscribed_at",
  unsubscribed_at: "unsubscribed_at",
  email: "email",
  first_name: "lower(first_name)",
  last_name: "lower(last_name)"
}

const isUniqueViolation = (error: unknown): boolean =>
  /unique|23505/i.test(`${String((error as { cause?: unknown }).cause)} ${JSON.stringify(error)}`)

/**
 * SubscriberRepository over SqlClient. Status is stored next to its timestamps for indexed filtering, and every
 * write adjusts the list's per-status counters and tags' subscriber counts by the rows it actually changed, so
 * counts stay exact and are read without counting a million rows. Those counters move through `shiftListCount` and
 * `moveTagCounts`: on Postgres recorded changes, so that writers of one list do not queue for its rows until they
 * commit; on SQLite updates of the rows, after the write's other statements, the list's before its tags' in id order.
 */
export const SqlSubscriberRepository = Layer.effect(
  SubscriberRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const writer = yield* Effect.serviceOption(SyncWriter)
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    const decodeRows = Schema.decodeUnknown(Schema.Array(SubscriberRow))
    const decodePage = Schema.decodeUnknown(Schema.Array(PageRow))
    /** The row's tag names in tag order (`compareTagNames`), as a JSON array (SQLite's json_group_array, Postgres' json_agg). */
    const tagNamesColumn = sql.literal(`COALESCE((SELECT ${sql.onDialectOrElse({ pg: () => "json_agg", orElse: () => "json_group_array" })}(t.name ORDER BY ${tagNameOrder(sql, "t")})
      FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = subscribers.id), '[]')`)
    const decodeTagIds = Schema.decodeUnknown(Schema.Array(TagIdRow))
    const encodeAttributes = Schema.encode(Schema.parseJson(ExtraAttributes))

    /** The subscribers where `condition` holds, each read with its tag names in one statement. */
    const findWithTags = (condition: Statement.Fragment, order: Statement.Fragment = sql``) =>
      Effect.flatMap(
        sql`SELECT subscribers.*, ${tagNamesColumn} AS tag_names FROM subscribers WHERE ${condition} ${order}`,
        decodePage
      ).pipe(Effect.map((rows) => rows.map(({ listTotal: _, tagNames, ...row }) => new Subscriber({ ...row, tags: tagNames }, true))))
    const findOneWithTags = (condition: Statement.Fragment) =>
      Effect.map(findWithTags(condition), (found) => Option.fromNullable(found[0]))

    const shift = (emailListId: number, from: SubscriberStatus | null, to: SubscriberStatus | null) =>
      shiftListCount(sql, emailListId, from, to)
    /** The tag ids of `RETURNING tag_id` rows. */
    const tagIdsOf = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeTagIds(rows), (refs) => refs.map((ref) => Number(ref.tagId)))

    /** Moves the tags' counts by the links removed and added. */
    const countTags = (removed: ReadonlyArray<number>, added: ReadonlyArray<number>) => moveTagCounts(sql, linkCountDelta(removed, added))

    /** Records a subscriber's tag.removed and tag.added events for the links that changed (`removed`, `added`). */
    const tagsChanged = (subscriberId: number, tags: ReadonlyArray<TagRef>, removed: ReadonlyArray<number>, added: ReadonlyArray<number>) =>
      removed.length + added.length === 0
        ? Effect.void
        : Effect.flatMap(Clock.currentTimeMillis, (millis) => insertEvents(sql, tagChangeEvents(subscriberId, tags, removed, added, new Date(millis))))

    /** The tags with these ids, as a change of a subscriber's tags names them. */
    const tagRefs = (ids: ReadonlyArray<TagId>) =>
      ids.length === 0 ? Effect.succeed([]) : sql<{ readonly id: number; readonly name: string; readonly emailListId: number }>`
        SELECT id, name, email_list_id FROM tags WHERE id IN ${sql.in(ids)}`.pipe(
          Effect.map((rows) => rows.map((tag): TagRef => ({ id: Number(tag.id) as TagId, name: tag.name, emailListId: Number(tag.emailListId) as EmailListId })))
        )

    const columns = (changes: SubscriberChanges) =>
      Effect.map(encodeAttributes(changes.extraAttributes), (extraAttributes) => ({
        email: changes.email,
        firstName: changes.firstName,
        lastName: changes.lastName,
        extraAttributes,
        searchKey: searchKey(changes.email, changes.firstName, changes.lastName),
        status: subscriberStatus(changes),
        subscribedAt: changes.subscribedAt?.toISOString() ?? null,
        unsubscribedAt: changes.unsubscribedAt?.toISOString() ?? null,
        updatedAt: changes.updatedAt.toISOString()
      }))

    /** Detaches and attaches tags; events first, the tags' counts last (after any list count the caller moved). */
    const changeTags: SubscriberRepository["Type"]["changeTags"] = (id, { add, remove }) =>
      Effect.gen(function*() {
        if (pg && !remove.some((tag) => add.some((other) => other.id === tag.id))) {
          return yield* changeTagsAtOnce(sql, id, add, remove, new Date(yield* Clock.currentTimeMillis))
        }
        if (Option.isSome(writer)) return yield* changeTagsSync(writer.value, id, add, remove, new Date(yield* Clock.currentTimeMillis))
        const removed = remove.length === 0 ? [] : yield* tagIdsOf(yield* sql`DELETE FROM subscriber_tags
          WHERE subscriber_id = ${id} AND tag_id IN ${sql.in(remove.map((tag) => tag.id))} RETURNING tag_id`)
        const added = add.length === 0 ? [] : yield* tagIdsOf(yield* sql`INSERT INTO subscriber_tags
          ${sql.insert([...new Set(add.map((tag) => tag.id))].map((tagId) => ({ subscriberId: id, tagId })))} ON CONFLICT DO NOTHING RETURNING tag_id`)
        yield* tagsChanged(id, [...remove, ...add], removed, added)
        yield* countTags(removed, added)
      }).pipe(Effect.orDie)

    return SubscriberRepository.of({
      insert: (subscriber, tags = []) =>
        Effect.gen(function*() {
          const row = {
            ...(yield* columns(subscriber)),
            uuid: subscriber.uuid,
            emailListId: subscriber.emailListId,
            createdAt: subscriber.createdAt.toISOString()
          }
          const inserted = tags.length === 0
            ? yield* insertSubscriber(sql, writer, row, subscriber.createdAt)
            : pg
            ? yield* insertTaggedSubscriberPg(sql, row, subscriber.createdAt, tags)
            : yield* atomically(sql, Effect.tap(
              insertSubscriber(sql, writer, row, subscriber.createdAt),
              (rows) => rows.length === 0 ? Effect.void : changeTags(Number(rows[0]!["id"]) as SubscriberId, { add: tags, remove: [] })
            ))
          if (inserted.length === 0) return Option.none()
          const [created] = yield* decodeRows(inserted)
          return Option.some(new Subscriber({ ...created!, tags: [] }, true))
        }).pipe(Effect.orDie),
      update: (previous, changes) =>
        Effect.gen(function*() {
          const row = yield* columns(changes)
          const from = subscriberStatus(previous)
          const updated = yield* sql`UPDATE subscribers SET ${sql.update(row)}
            WHERE id = ${previous.id} AND status = ${from} AND NOT EXISTS (
              SELECT 1 FROM subscribers other
              WHERE other.email_list_id = ${previous.emailListId} AND other.email = ${row.email} AND other.id <> ${previous.id}
            ) RETURNING id`
          if (updated.length === 0) return Option.none()
          yield* insertEvents(sql, statusEvents(previous, from, row.status, changes.updatedAt))
          yield* shift(previous.emailListId, from, row.status)
          return yield* findOneWithTags(sql`id = ${previous.id}`)
        }).pipe(
          Effect.catchIf(
            (error) => error._tag === "SqlError" && isUniqueViolation(error),
            () => Effect.succeed(Option.none<Subscriber>())
          ),
          Effect.orDie
        ),
      findById: (id) => findOneWithTags(sql`id = ${id}`).pipe(Effect.orDie),
      findByUuid: (uuid) => findOneWithTags(sql`uuid = ${uuid}`).pipe(Effect.orDie),
      findByEmail: (emailListId, email) => findOneWithTags(sql`email_list_id = ${emailListId} AND email = ${email}`).pipe(Effect.orDie),
      findAllByEmail: (email) =>
        // one probe of (email_list_id, email) per list: there is no index on the address alone
        findWithTags(sql`email_list_id IN (SELECT id FROM email_lists) AND email = ${email}`, sql`ORDER BY id`).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          const deleted = yield* sql<{
            readonly emailListId: number
            readonly status: SubscriberStatus
            readonly uuid: string
            readonly email: string
            readonly firstName: string | null
            readonly lastName: string | null
          }>`DELETE FROM subscribers WHERE id = ${id} RETURNING email_list_id, status, uuid, email, first_name, last_name`
          if (deleted.length === 0) return false
          const at = new Date(yield* Clock.currentTimeMillis)
          yield* insertEvents(sql, [deletedEvent({ ...deleted[0]!, id, emailListId: Number(deleted[0]!.emailListId) }, deleted[0]!.status, at)])
          const untagged = yield* tagIdsOf(yield* sql`DELETE FROM subscriber_tags WHERE subscriber_id = ${id} RETURNING tag_id`)
          // its mails go with it (a campaign's counters keep what they counted)
          yield* sql`DELETE FROM campaign_clicks WHERE send_id IN (SELECT id FROM sends WHERE subscriber_id = ${id})`
          yield* sql`DELETE FROM sends WHERE subscriber_id = ${id}`
          // the counts last, the list's then its tags', as every write moves them
          yield* shift(deleted[0]!.emailListId, deleted[0]!.status, null)
          yield* countTags(untagged, [])
          return true
        }).pipe(Effect.orDie),
      addTags: (id, tagIds) => Effect.flatMap(tagRefs(tagIds).pipe(Effect.orDie), (add) => changeTags(id, { add, remove: [] })),
      removeTags: (id, tagIds) => Effect.flatMap(tagRefs(tagIds).pipe(Effect.orDie), (remove) => changeTags(id, { add: [], remove })),
      changeTags,
      tagIds: (id) =>
        sql<{ readonly tagId: TagId }>`SELECT tag_id FROM subscriber_tags WHERE subscriber_id = ${id}`.pipe(
          Effect.map((rows) => rows.map((row) => row.tagId)),
          Effect.orDie
        ),
      // one statement: the page's rows with their tags and, where the list's counters answer it, the total
      page: (query) =>
        Effect.gen(function*() {
          const where = subscriberConditions(sql, query.criteria)
          const order = orderClause(sorts, ["subscribed_at", "unsubscribed_at", "first_name", "last_name"], query.sort)
          const offset = (query.page - 1) * query.perPage
          const counted = listCounter(query.criteria)
          const total = counted === null
            ? sql``
            : sql`, (SELECT ${sql.literal(counted)} FROM email_lists WHERE id = ${query.criteria.emailListId}) AS list_total`
          // the tags are read for the page's rows only (Postgres would compute them for every row OFFSET skips)
          const rows = yield* decodePage(yield* sql`SELECT subscribers.*, ${tagNamesColumn} AS tag_names ${total}
            FROM (SELECT * FROM subscribers WHERE ${where} ORDER BY ${sql.literal(order)} LIMIT ${query.perPage} OFFSET ${offset})
              AS subscribers
            ORDER BY ${sql.literal(order)}`)
          return {
            items: rows.map(({ listTotal: _, tagNames, ...row }) => new Subscriber({ ...row, tags: tagNames }, true)),
            total: rows[0]?.listTotal ?? (yield* countOf(sql, query.criteria))
          }
        }).pipe(Effect.orDie),
      count: (criteria) => countOf(sql, criteria).pipe(Effect.orDie)
    })
  })
)

/** The `email_lists` expression that counts the criteria's subscribers, when its counters can (whole list, one status). */
const listCounter = (criteria: SubscriberCriteria): string | null => {
  const { emailListId: _, status, ...rest } = criteria
  if (Object.keys(rest).length > 0) return null
  return listCountExpression("email_lists", status)
}

/** The number of matching subscribers; the list's maintained counters answer whole-list and per-status counts. */
const countOf = (sql: SqlClient.SqlClient, criteria: SubscriberCriteria) =>
  Effect.gen(function*() {
    const counted = listCounter(criteria)
    if (counted !== null) {
      const rows = yield* sql<{ readonly total: number }>`SELECT ${sql.literal(counted)} AS total
                                                          FROM email_lists WHERE id = ${criteria.emailListId}`
      return Number(rows[0]?.total ?? 0)
    }
    const rows = yield* sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM subscribers
                                                        WHERE ${subscriberConditions(sql, criteria)}`
    return Number(rows[0]?.total ?? 0)
  })
