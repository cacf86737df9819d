import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { createdEvent, type EmailListId, type SubscriberId, type SubscriberStatus, tagEvents, type TagRef } from "@mailroom/core"
import { Effect, Option } from "effect"
import { columnName } from "./columnNames.js"
import { dataTexts, EVENT_COLUMNS, insertEvents, pgEventValues, runEventInserts } from "./events/insertEvents.js"
import { LIST_COUNTS, shiftListCount } from "./listCounts.js"
import { TAG_COUNTS } from "./moveTagCounts.js"
import { counterStatements, noteCountChange } from "./sharedCounters.js"
import type { SyncWriter } from "./SyncWriter.js"
import { insertText } from "./valuesInsert.js"

/** A subscriber's columns as `INSERT INTO subscribers` writes them (camelCase; the client maps the names). */
export interface SubscriberInsertRow {
  readonly emailListId: number
  readonly status: SubscriberStatus
  readonly [column: string]: unknown
}

/**
 * Inserts a subscriber unless its address is on its list already, with its `subscriber.created` event and its list's
 * count change; the inserted row (`RETURNING *`), or none. On Postgres that is one statement (data-modifying `WITH`
 * clauses: two round trips fewer for every sign-up); on a store with a `SyncWriter` (SQLite) three statements in one
 * synchronous call; elsewhere three in the caller's transaction or in one of their own.
 */
export const insertSubscriber = (
  sql: SqlClient.SqlClient,
  writer: Option.Option<SyncWriter["Type"]>,
  row: SubscriberInsertRow,
  at: Date
): Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError> =>
  Option.isSome(writer) ? insertAtOnce(writer.value, row, at) : sql.onDialectOrElse({
    pg: () => {
      // the event as core makes it; its subscriber id is the inserted row's, taken in the statement
      const event = createdEvent({ id: 0 as SubscriberId, emailListId: row.emailListId as EmailListId }, row.status, at)
      return sql<Record<string, unknown>>`WITH created AS (INSERT INTO subscribers ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING *),
          event AS (INSERT INTO events (${sql.literal(EVENT_COLUMNS.join(", "))})
            SELECT ${pgEventValues(sql, event, dataTexts(), { email_list_id: "email_list_id", subscriber_id: "id" })} FROM created),
          counted AS (INSERT INTO ${sql(LIST_COUNTS.changes)} (${sql(LIST_COUNTS.key)}, ${sql(row.status)}) SELECT email_list_id, 1 FROM created)
        SELECT * FROM created`.pipe(Effect.tap((inserted) => {
        if (inserted.length > 0) noteCountChange(sql)
      }))
    },
    orElse: () =>
      atomically(sql, Effect.tap(
        sql<Record<string, unknown>>`INSERT INTO subscribers ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING *`,
        (inserted) =>
          inserted.length === 0 ? Effect.void : Effect.zipRight(
            insertEvents(sql, [createdEvent({ id: Number(inserted[0]!["id"]) as SubscriberId, emailListId: row.emailListId as EmailListId }, row.status, at)]),
            shiftListCount(sql, row.emailListId, null, row.status)
          )
      ))
  })

/** The sign-up's three statements as one call on the writing connection (`SyncWriter`), texts and values as above. */
const insertAtOnce = (writer: SyncWriter["Type"], row: SubscriberInsertRow, at: Date) => {
  const fields = Object.keys(row)
  // column names quoted, as @effect/sql's `sql.insert` quotes them
  const inserted = insertText(false, "subscribers", fields.map((field) => `"${columnName(field)}"`), 1, "*", "ON CONFLICT DO NOTHING")
  const values = fields.map((field) => row[field] ?? null)
  const counted = counterStatements(LIST_COUNTS, new Map([[row.emailListId, new Map([[row.status, 1]])]]))
  return writer.write((statements) => {
    const created = statements.get(inserted, values)
    if (created === undefined) return []
    runEventInserts(statements, [createdEvent({ id: Number(created["id"]) as SubscriberId, emailListId: row.emailListId as EmailListId }, row.status, at)])
    for (const [text, ids] of counted) statements.run(text, ids)
    return [created]
  })
}

/**
 * Postgres: inserts a subscriber unless its address is on its list already and attaches `tags` (each once, existing
 * tags of its list), in one statement: the row, its links, its `subscriber.created` event then a `tag.added` event for
 * each tag by id (one INSERT in that order), the list's and the tags' count changes. The inserted row, or none. A
 * tagged sign-up is then this statement after the tags' look-up, where it was a transaction of five round trips
 * (bench/HISTORY.md).
 */
export const insertTaggedSubscriberPg = (
  sql: SqlClient.SqlClient,
  row: SubscriberInsertRow,
  at: Date,
  tags: ReadonlyArray<TagRef>
): Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError> => {
  const sorted = [...new Map(tags.map((tag) => [tag.id as number, tag])).values()].sort((a, b) => a.id - b.id)
  // the events as core makes them; their subscriber id is the inserted row's, taken in the statement
  const subscriber = { id: 0 as SubscriberId, emailListId: row.emailListId as EmailListId }
  const events = [createdEvent(subscriber, row.status, at), ...tagEvents("tag.added", subscriber, sorted, at)]
  const dataText = dataTexts()
  const columns = sql.literal(EVENT_COLUMNS.join(", "))
  const candidates = events.map((event, ord) => sql`(${ord}::int, ${pgEventValues(sql, event, dataText)})`)
  const tagIds = sorted.map((tag) => sql`(${tag.id}::int)`)
  return sql<Record<string, unknown>>`WITH created AS (INSERT INTO subscribers ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING *),
      linked AS (INSERT INTO subscriber_tags (subscriber_id, tag_id)
        SELECT c.id, t.tag_id FROM created c CROSS JOIN (VALUES ${sql.csv(tagIds)}) AS t (tag_id) RETURNING tag_id),
      candidates (ord, ${columns}) AS (VALUES ${sql.csv(candidates)}),
      evented AS (INSERT INTO events (${columns})
        SELECT ${sql.literal(EVENT_COLUMNS.map((column) => (column === "subscriber_id" ? "c.id" : `d.${column}`)).join(", "))}
        FROM candidates d CROSS JOIN created c ORDER BY d.ord),
      counted AS (INSERT INTO ${sql(LIST_COUNTS.changes)} (${sql(LIST_COUNTS.key)}, ${sql(row.status)}) SELECT email_list_id, 1 FROM created),
      tagged AS (INSERT INTO ${sql(TAG_COUNTS.changes)} (${sql(TAG_COUNTS.key)}, subscribers) SELECT tag_id, 1 FROM linked)
    SELECT * FROM created`.pipe(Effect.tap((inserted) => {
    if (inserted.length > 0) noteCountChange(sql)
  }))
}

/** Runs `self` in the current transaction, or in one of its own outside any. */
export const atomically = <A, E, R>(sql: SqlClient.SqlClient, self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) => (Option.isSome(outer) ? self : sql.withTransaction(self)))
