import { SqlClient } from "@effect/sql"
import { DomainEvent, type EventBatch, EventOutbox, type EventPosition, isEventType, PRUNE_CLOCK_SLACK } from "@mailroom/core"
import { Duration, Effect, Layer, Option } from "effect"
import { insertEvents } from "./insertEvents.js"

interface EventRow {
  readonly id: number | string
  readonly tx: number | string
  readonly type: string
  readonly createdAt: string
  readonly emailListId: number | null
  readonly subscriberId: number | null
  readonly campaignId: number | null
  readonly sendId: number | null
  readonly refId: number | null
  readonly data: string | null
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value))

/** The batch read after `after`: its events and the position of the last one (or `after` when there are none). */
const toBatch = (rows: ReadonlyArray<EventRow>, after: EventPosition): EventBatch => {
  const events = rows.filter((row) => isEventType(row.type)).map((row) =>
    new DomainEvent({
      id: Number(row.id),
      type: row.type as DomainEvent["type"],
      occurredAt: new Date(row.createdAt),
      emailListId: nullableNumber(row.emailListId),
      subscriberId: nullableNumber(row.subscriberId),
      campaignId: nullableNumber(row.campaignId),
      sendId: nullableNumber(row.sendId),
      refId: nullableNumber(row.refId),
      data: row.data === null ? null : JSON.parse(row.data) as Record<string, unknown>
    }, true)
  )
  const last = rows.at(-1)
  return { events, next: last === undefined ? after : { tx: Number(last.tx), id: Number(last.id) } }
}

/**
 * EventOutbox over SqlClient. On Postgres an event is read only once every transaction older than it has ended
 * (its `tx` below the snapshot's xmin), in (tx, id) order, and a consumer is held for the claiming transaction with an
 * advisory lock taken without waiting, so one worker at a time handles a consumer's batch and the others skip it.
 * SQLite has one writer at a time: ids are in commit order.
 */
export const SqlEventOutbox = Layer.effect(
  EventOutbox,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    const horizon = sql.literal("pg_snapshot_xmin(pg_current_snapshot())::text::bigint")

    // the row comparison is an index condition on events_order; the equivalent OR only a filter, so every read
    // scanned the outbox from its oldest event (90 ms at a million events, per poll of each consumer)
    const read = (after: EventPosition, limit: number) =>
      Effect.map(
        pg
          ? sql<EventRow>`SELECT * FROM events WHERE (tx, id) > (${after.tx}, ${after.id}) AND tx < ${horizon}
                          ORDER BY tx, id LIMIT ${limit}`
          : sql<EventRow>`SELECT * FROM events WHERE id > ${after.id} ORDER BY id LIMIT ${limit}`,
        (rows) => toBatch(rows, after)
      )

    /** Where a new consumer starting at the end stands: past every event no running transaction can precede. */
    const end = pg
      ? Effect.map(sql<{ readonly tx: string }>`SELECT (${horizon} - 1)::text AS tx`, (rows): EventPosition => ({
        tx: Number(rows[0]!.tx),
        id: Number.MAX_SAFE_INTEGER
      }))
      : Effect.map(sql<{ readonly id: number | null }>`SELECT max(id) AS id FROM events`, (rows): EventPosition => ({
        tx: 0,
        id: Number(rows[0]?.id ?? 0)
      }))

    /** Holds the consumer for this transaction on Postgres (an advisory lock: never waits); SQLite has one writer anyway. */
    const hold = (consumer: string) =>
      pg
        ? Effect.map(
          sql<{ readonly held: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('mailroom.events'), hashtext(${consumer})) AS held`,
          (rows) => rows[0]?.held === true
        )
        : Effect.succeed(true)

    const saved = (consumer: string) =>
      Effect.map(
        sql<{ readonly tx: number | string; readonly lastId: number | string }>`SELECT tx, last_id FROM event_consumers WHERE name = ${consumer}`,
        (rows) => Option.map(Option.fromNullable(rows[0]), (row): EventPosition => ({ tx: Number(row.tx), id: Number(row.lastId) }))
      )

    return EventOutbox.of({
      append: (events) => insertEvents(sql, events).pipe(Effect.orDie),
      claim: (consumer, { limit, start }) =>
        Effect.gen(function*() {
          if (!(yield* hold(consumer))) return Option.none()
          const known = yield* saved(consumer)
          if (Option.isSome(known)) return Option.some(yield* read(known.value, limit))
          const from = start === "end" ? yield* end : { tx: 0, id: 0 }
          yield* sql`INSERT INTO event_consumers ${
            sql.insert({ name: consumer, tx: from.tx, lastId: from.id, updatedAt: new Date().toISOString() })
          } ON CONFLICT DO NOTHING`
          return Option.some(yield* read(from, limit))
        }).pipe(Effect.orDie),
      advance: (consumer, position) =>
        sql`UPDATE event_consumers SET tx = ${position.tx}, last_id = ${position.id}, updated_at = ${new Date().toISOString()}
            WHERE name = ${consumer}`.pipe(Effect.asVoid, Effect.orDie),
      position: (consumer) => saved(consumer).pipe(Effect.orDie),
      read: (after, limit) => read(after, limit).pipe(Effect.orDie),
      end: end.pipe(Effect.orDie),
      prune: (before) => {
        // events are numbered as they are written, with the time they were written: the old ones are the ids before the
        // first recent one, found by walking ids from the oldest (the rows about to go), with no index on the time; one
        // dated beyond the slack (a clock that ran ahead) is kept but does not stop the walk
        const cutoff = before.toISOString()
        const slackUntil = new Date(before.getTime() + Duration.toMillis(PRUNE_CLOCK_SLACK)).toISOString()
        const firstRecent = sql`(SELECT id FROM events WHERE created_at >= ${cutoff} AND created_at <= ${slackUntil} ORDER BY id LIMIT 1)`
        return Effect.map(
          sql<{ readonly id: number }>`DELETE FROM events WHERE id < COALESCE(${firstRecent}, (SELECT MAX(id) FROM events) + 1)
            AND created_at < ${cutoff}
            AND NOT EXISTS (SELECT 1 FROM event_consumers c WHERE c.tx < events.tx OR (c.tx = events.tx AND c.last_id < events.id))
            RETURNING id`,
          (rows) => rows.length
        ).pipe(Effect.orDie)
      }
    })
  })
)
