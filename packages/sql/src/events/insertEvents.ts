import type { SqlClient } from "@effect/sql"
import type { NewEvent } from "@mailroom/core"
import { Effect } from "effect"
import { isoText } from "../isoText.js"
import type { SyncStatements } from "../SyncWriter.js"
import { type InsertValue, runValuesInsert, valuesInsert } from "../valuesInsert.js"

/** Events per multi-row INSERT (8 columns each). */
const CHUNK = 1_000

/** The columns of an event row, in the order of `eventValues` (its `tx` is the database's default). */
export const EVENT_COLUMNS = ["type", "created_at", "email_list_id", "subscriber_id", "campaign_id", "send_id", "ref_id", "data"] as const

/**
 * The JSON text of events' data, remembered per object for one write: the events of a batch share a handful of data
 * objects (one per tag, one per status), and each was serialized once per event.
 */
export const dataTexts = () => {
  const texts = new Map<object, string>()
  return (data: NewEvent["data"]): string | null => {
    if (data === null) return null
    let text = texts.get(data)
    if (text === undefined) texts.set(data, text = JSON.stringify(data))
    return text
  }
}

/** Writes the values of EVENT_COLUMNS for an event into `into` from `at` (its data's text through `dataText`); the index after them. */
const writeEventValues = (event: NewEvent, dataText: (data: NewEvent["data"]) => string | null, into: Array<InsertValue>, at: number): number => {
  into[at] = event.type
  into[at + 1] = isoText(event.occurredAt)
  into[at + 2] = event.emailListId
  into[at + 3] = event.subscriberId
  into[at + 4] = event.campaignId
  into[at + 5] = event.sendId
  into[at + 6] = event.refId
  into[at + 7] = dataText(event.data)
  return at + 8
}

/** The values of EVENT_COLUMNS for an event (its data's text through `dataText`, one per write). */
export const eventValues = (event: NewEvent, dataText: (data: NewEvent["data"]) => string | null): Array<InsertValue> => {
  const values = new Array<InsertValue>(EVENT_COLUMNS.length)
  writeEventValues(event, dataText, values, 0)
  return values
}

/** Postgres' types of EVENT_COLUMNS (the `events` table's), for values where a statement cannot infer them. */
const EVENT_COLUMN_TYPES = ["text", "text", "int", "int", "int", "int", "int", "text"] as const

/**
 * An event's values of EVENT_COLUMNS as a typed Postgres list (for a `VALUES` row or a `SELECT` that an INSERT takes);
 * `from` names the columns whose value the query supplies instead (column → SQL expression).
 */
export const pgEventValues = (
  sql: SqlClient.SqlClient,
  event: NewEvent,
  dataText: (data: NewEvent["data"]) => string | null,
  from: Partial<Record<(typeof EVENT_COLUMNS)[number], string>> = {}
) => {
  const values = eventValues(event, dataText)
  return sql.csv(EVENT_COLUMNS.map((column, i) => {
    const expression = from[column]
    return expression !== undefined ? sql.literal(expression) : sql`${values[i]!}::${sql.literal(EVENT_COLUMN_TYPES[i]!)}`
  }))
}

/** The events' values for multi-row inserts: chunks of at most CHUNK rows, row after row, EVENT_COLUMNS each. */
export const eventValueChunks = (events: ReadonlyArray<NewEvent>): Array<Array<InsertValue>> => {
  const dataText = dataTexts()
  const chunks: Array<Array<InsertValue>> = []
  for (let at = 0; at < events.length; at += CHUNK) {
    const end = Math.min(events.length, at + CHUNK)
    const values = new Array<InsertValue>((end - at) * EVENT_COLUMNS.length)
    for (let i = at, v = 0; i < end; i++) v = writeEventValues(events[i]!, dataText, values, v)
    chunks.push(values)
  }
  return chunks
}

/** Records events in the current transaction, in multi-row inserts. */
export const insertEvents = (sql: SqlClient.SqlClient, events: ReadonlyArray<NewEvent>) =>
  Effect.forEach(eventValueChunks(events), (values) => valuesInsert(sql, "events", EVENT_COLUMNS, values), { discard: true })

/** Records events through a `SyncWriter`'s statements (SQLite), in multi-row inserts. */
export const runEventInserts = (statements: SyncStatements, events: ReadonlyArray<NewEvent>): void => {
  for (const values of eventValueChunks(events)) {
    runValuesInsert(statements, "events", EVENT_COLUMNS, values)
  }
}

/**
 * Records one event per send among `sendIds` (set-based: INSERT … SELECT), with the send's campaign, transactional
 * mail (`ref_id`), subscriber and list; `where` narrows the sends (e.g. to transactional ones).
 */
export const insertSendEvents = (
  sql: SqlClient.SqlClient,
  type: NewEvent["type"],
  sendIds: ReadonlyArray<number>,
  at: Date,
  where = sql.literal("1 = 1")
) =>
  sendIds.length === 0 ? Effect.void : sql`INSERT INTO events (type, created_at, email_list_id, subscriber_id, campaign_id, send_id, ref_id)
    SELECT ${type}, ${at.toISOString()}, sub.email_list_id, s.subscriber_id, s.campaign_id, s.id, s.transactional_mail_id
    FROM sends s LEFT JOIN subscribers sub ON sub.id = s.subscriber_id
    WHERE s.id IN ${sql.in(sendIds)} AND ${where} ORDER BY s.id`.pipe(Effect.asVoid)
