import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { NewEvent } from "@mailroom/core"
import { Effect, Option } from "effect"
import { chunks } from "../../chunks.js"
import { EVENT_COLUMNS, eventValueChunks } from "../../events/insertEvents.js"
import type { SyncWriter } from "../../SyncWriter.js"
import { type InsertValue, runValuesInsert, valuesInsert } from "../../valuesInsert.js"
import { IMPORTED_COLUMNS, NEW_SUBSCRIBER_COLUMNS } from "./importColumns.js"

/** Rows per multi-row INSERT (13 columns each: under SQLite's 32,766 and Postgres' 65,535 parameters). */
const INSERT_CHUNK = 500

/** A subscriber of the batch's list as the look-up finds it. */
export type ExistingSubscriberRow = {
  readonly id: number
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: string
  readonly subscribedAt: string | null
  readonly unsubscribedAt: string | null
  readonly lastImportId: number | null
}

/**
 * Rows built one at a time as a writer reads them (each exactly once, in order): a batch's rows then live only while
 * their statement is filled, instead of all of them until the batch ends (which made the garbage collector copy them).
 */
export interface Rows<A> {
  /** How many rows. */
  readonly length: number
  /** Builds row `index` (0-based); read each once, in order. */
  readonly row: (index: number) => A
}

/**
 * A batch's new subscribers, each written straight into the values of the statement being filled (NEW_SUBSCRIBER_COLUMNS
 * order), each exactly once and in order: no object or array per row (an object of columns a row was ~7 % of what an
 * import allocated, bench/HISTORY.md).
 */
export interface NewSubscriberRows {
  /** How many rows. */
  readonly length: number
  /** Writes row `index`'s values into `into` from `at`; the index after them. */
  readonly write: (index: number, into: Array<InsertValue>, at: number) => number
  /** Row `index`'s address. */
  readonly email: (index: number) => string
}

/** A changed subscriber: its id and the values of IMPORTED_COLUMNS. */
export interface UpdatedSubscriber {
  readonly id: number
  readonly values: ReadonlyArray<InsertValue>
}

/** A subscriber-tag link. */
export type TagLinkRow = { readonly subscriberId: number; readonly tagId: number }

/**
 * The statements of an import batch whose size grows with the batch; a dialect may run them its own faster way.
 * Every one runs inside the batch's transaction.
 */
export interface ImportBulkWrites {
  /** The list's subscribers with these addresses (an address may repeat: an `IN` list takes it, and a set to drop repeats cost more). */
  readonly existing: (emailListId: number, emails: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ExistingSubscriberRow>, SqlError>
  /** Writes the imported columns of existing subscribers (each id once). */
  readonly update: (rows: ReadonlyArray<UpdatedSubscriber>) => Effect.Effect<void, SqlError>
  /** Inserts new subscribers (each row written once); their ids, in the order of `rows`. */
  readonly insert: (rows: NewSubscriberRows) => Effect.Effect<ReadonlyArray<number>, SqlError>
  /** Links subscribers that have no link yet (the batch's new ones) to tags. */
  readonly link: (links: ReadonlyArray<TagLinkRow>) => Effect.Effect<void, SqlError>
  /** Records events, in order. */
  readonly record: (events: ReadonlyArray<NewEvent>) => Effect.Effect<void, SqlError>
}

/** Inserts new subscribers and learns their ids from RETURNING. */
const returningInsert = (sql: SqlClient.SqlClient, rows: NewSubscriberRows) =>
  Effect.gen(function*() {
    const ids: Array<number> = []
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const end = Math.min(rows.length, start + INSERT_CHUNK)
      const values = new Array<InsertValue>((end - start) * NEW_SUBSCRIBER_COLUMNS.length)
      const emails: Array<string> = []
      for (let i = start, v = 0; i < end; i++) {
        emails.push(rows.email(i))
        v = rows.write(i, values, v)
      }
      // matched by address: neither database promises RETURNING rows in VALUES order
      const idOf = new Map<string, number>()
      for (const { email, id } of yield* valuesInsert<{ readonly id: number; readonly email: string }>(sql, "subscribers", NEW_SUBSCRIBER_COLUMNS, values, "id, email")) {
        idOf.set(email, Number(id))
      }
      for (const email of emails) ids.push(idOf.get(email)!)
    }
    return ids
  })

const NUMBERED_COLUMNS = ["id", ...NEW_SUBSCRIBER_COLUMNS]

/**
 * SQLite: numbers the new subscribers after the table's highest id and AUTOINCREMENT counter and inserts them without
 * RETURNING, which cost 3.5 µs of an insert's 15.7 µs a row (bench/HISTORY.md). Safe because a transaction that
 * writes is the file's only writer, and one whose snapshot went stale cannot write at all.
 */
const numberedInsert = (sql: SqlClient.SqlClient, rows: NewSubscriberRows, insertValues: InsertValues) =>
  Effect.gen(function*() {
    if (rows.length === 0) return []
    const [after] = yield* sql<{ readonly last: number }>`SELECT MAX(COALESCE((SELECT MAX(id) FROM subscribers), 0),
      COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'subscribers'), 0)) AS last`
    const first = Number(after!.last) + 1
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const end = Math.min(rows.length, start + INSERT_CHUNK)
      const values = new Array<InsertValue>((end - start) * NUMBERED_COLUMNS.length)
      for (let i = start, v = 0; i < end; i++) {
        values[v++] = first + i
        v = rows.write(i, values, v)
      }
      yield* insertValues("subscribers", NUMBERED_COLUMNS, values)
    }
    return Array.from({ length: rows.length }, (_, i) => first + i)
  })

/** Runs a multi-row INSERT of `values` (row after row, `columns.length` each) into `table`. */
type InsertValues = (table: string, columns: ReadonlyArray<string>, values: Array<InsertValue>) => Effect.Effect<void, SqlError>

/**
 * The multi-row INSERTs of a batch: through @effect/sql, or, on a store with a `SyncWriter` (SQLite), each as one call
 * on the writing connection, which skips the statement compiler's copy of the values (~440 bytes a row) and the
 * Effect, span and look-up of every statement (bench/HISTORY.md).
 */
const valuesInserter = (sql: SqlClient.SqlClient, writer: Option.Option<SyncWriter["Type"]>): InsertValues =>
  Option.match(writer, {
    onNone: () => (table, columns, values) => Effect.asVoid(valuesInsert(sql, table, columns, values)),
    onSome: (writer) => (table, columns, values) =>
      values.length === 0 ? Effect.void : writer.write((statements) => runValuesInsert(statements, table, columns, values))
  })

/**
 * The bulk statements in portable SQL: IN look-ups, multi-row inserts (on SQLite numbered here, without RETURNING, and
 * run through its `SyncWriter` when given), one UPDATE per changed subscriber.
 */
export const sqlImportBulkWrites = (sql: SqlClient.SqlClient, writer: Option.Option<SyncWriter["Type"]> = Option.none()): ImportBulkWrites => {
  const insertValues = valuesInserter(sql, writer)
  return {
    existing: (emailListId, emails) =>
      Effect.gen(function*() {
        const found: Array<ExistingSubscriberRow> = []
        for (const part of chunks(emails, 5_000)) {
          found.push(...yield* sql<ExistingSubscriberRow>`SELECT id, email, first_name, last_name, extra_attributes, subscribed_at,
              unsubscribed_at, last_import_id FROM subscribers WHERE email_list_id = ${emailListId} AND email IN ${sql.in(part)}`)
        }
        return found
      }),
    update: (rows) =>
      Effect.forEach(rows, ({ id, values }) => {
        const columns: Record<string, InsertValue> = {}
        IMPORTED_COLUMNS.forEach((column, i) => (columns[column] = values[i]!))
        return sql`UPDATE subscribers SET ${sql.update(columns)} WHERE id = ${id}`
      }, { discard: true }),
    insert: (rows) =>
      sql.onDialectOrElse({ sqlite: () => numberedInsert(sql, rows, insertValues), orElse: () => returningInsert(sql, rows) }),
    link: (links) =>
      Effect.forEach(chunks(links, 2_000), (part) => {
        const values = new Array<InsertValue>(part.length * 2)
        part.forEach((link, i) => {
          values[2 * i] = link.subscriberId
          values[2 * i + 1] = link.tagId
        })
        return insertValues("subscriber_tags", ["subscriber_id", "tag_id"], values)
      }, { discard: true }),
    record: (events) => Effect.forEach(eventValueChunks(events), (values) => insertValues("events", EVENT_COLUMNS, values), { discard: true })
  }
}
