import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { createdEvent, type EmailListId, type SubscriberId, type SubscriberStatus } from "@mailroom/core"
import { Effect, Option } from "effect"
import { columnName } from "./columnNames.js"
import { dataTexts, EVENT_COLUMNS, insertEvents, pgEventValues, runEventInserts } from "./events/insertEvents.js"
import { LIST_COUNTS, shiftListCount } from "./listCounts.js"
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

/** Runs `self` in the current transaction, or in one of its own outside any. */
const atomically = <A, E, R>(sql: SqlClient.SqlClient, self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) => (Option.isSome(outer) ? self : sql.withTransaction(self)))
