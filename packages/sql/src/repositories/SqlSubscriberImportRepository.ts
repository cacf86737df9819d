import { SqlClient } from "@effect/sql"
import { importStatusEvents, ImportRowError, SubscriberImport, SubscriberImportRepository } from "@mailroom/core"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { insertEvents } from "../events/insertEvents.js"
import { SqlBoolean } from "../columns.js"
import { selectPage } from "../selectPage.js"

/** A subscriber_imports row: the entity's fields with booleans stored as 1/0. */
const ImportRow = Schema.Struct({
  ...SubscriberImport.fields,
  subscribeUnsubscribed: SqlBoolean,
  unsubscribeOthers: SqlBoolean,
  replaceTags: SqlBoolean
})
const FromRow = Schema.transform(ImportRow, Schema.typeSchema(SubscriberImport), {
  strict: false,
  decode: (row) => new SubscriberImport(row, true),
  encode: (subscriberImport) => subscriberImport
})
const decodeImports = Schema.decodeUnknown(Schema.Array(FromRow))
const encodeRow = Schema.encode(ImportRow)

const iso = (date: Date | null | undefined) => (date === undefined ? undefined : date === null ? null : date.toISOString())

/** Characters per stored piece of an uploaded CSV text. */
const PIECE = 1_000_000

/**
 * A CSV text cut into pieces of at most PIECE characters, each ending at a line break where there is one (never between
 * the halves of a surrogate pair): the driver converts each bound text at once, and 8 MB conversions left that much
 * native memory behind per upload, where 1 MB ones are reused; the import reads the pieces in order as one text.
 */
export const csvPieces = (csv: string): Array<string> => {
  const pieces: Array<string> = []
  let at = 0
  while (csv.length - at > PIECE) {
    let end = csv.lastIndexOf("\n", at + PIECE - 1) + 1
    if (end <= at) {
      end = at + PIECE
      const code = csv.charCodeAt(end - 1)
      if (code >= 0xd800 && code <= 0xdbff) end--
    }
    pieces.push(csv.slice(at, end))
    at = end
  }
  pieces.push(csv.slice(at))
  return pieces
}

/** SubscriberImportRepository over SqlClient; leases use `FOR UPDATE SKIP LOCKED` on Postgres. */
export const SqlSubscriberImportRepository = Layer.effect(
  SubscriberImportRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const skipLocked = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeImports(rows), (found) => Option.fromNullable(found[0]))
    /** Stores a CSV text after the import's other parts, in pieces of at most PIECE characters. */
    const addPart = (id: number, csv: string) =>
      Effect.forEach(csvPieces(csv), (piece) =>
        sql`INSERT INTO subscriber_import_parts (import_id, seq, csv)
          SELECT ${id}, COALESCE(MAX(seq), 0) + 1, ${piece} FROM subscriber_import_parts WHERE import_id = ${id}`, { discard: true })
    const dropParts = (id: number) => sql`DELETE FROM subscriber_import_parts WHERE import_id = ${id}`
    const set = (changes: Record<string, unknown>) =>
      sql.update(Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Record<string, never>)

    return SubscriberImportRepository.of({
      insert: (subscriberImport, csv) =>
        Effect.gen(function*() {
          const row = yield* encodeRow({ ...subscriberImport, id: 0, csvLength: csv.length } as typeof ImportRow.Type)
          const { id: _, ...columns } = row
          const inserted = yield* sql`INSERT INTO subscriber_imports ${sql.insert(columns)} RETURNING *`
          const created = (yield* decodeImports(inserted))[0]!
          yield* addPart(created.id, csv)
          return created
        }).pipe(sql.withTransaction, Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM subscriber_imports WHERE id = ${id}`, one).pipe(Effect.orDie),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM subscriber_imports WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      replace: (id, settings, csv) =>
        Effect.gen(function*() {
          const changed = yield* one(yield* sql`UPDATE subscriber_imports SET ${
            set({
              emailListId: settings.emailListId,
              subscribeUnsubscribed: settings.subscribeUnsubscribed ? 1 : 0,
              unsubscribeOthers: settings.unsubscribeOthers ? 1 : 0,
              replaceTags: settings.replaceTags ? 1 : 0,
              csvLength: csv.length,
              updatedAt: settings.updatedAt.toISOString()
            })
          } WHERE id = ${id} AND status = 'draft' RETURNING *`)
          if (Option.isSome(changed)) {
            yield* dropParts(id)
            yield* addPart(id, csv)
          }
          return changed
        }).pipe(sql.withTransaction, Effect.orDie),
      append: (id, csv, at) =>
        Effect.gen(function*() {
          const changed = yield* one(yield* sql`UPDATE subscriber_imports
            SET csv_length = csv_length + ${csv.length}, updated_at = ${at.toISOString()}
            WHERE id = ${id} AND status = 'draft' RETURNING *`)
          if (Option.isSome(changed)) yield* addPart(id, csv)
          return changed
        }).pipe(sql.withTransaction, Effect.orDie),
      csvParts: (id, afterSeq, limit) =>
        sql<{ readonly seq: number; readonly csv: string }>`SELECT seq, csv FROM subscriber_import_parts
          WHERE import_id = ${id} AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((row) => ({ seq: Number(row.seq), text: row.csv }))),
          Effect.orDie
        ),
      dropCsv: (id) =>
        Effect.all([dropParts(id), sql`UPDATE subscriber_imports SET csv_length = 0 WHERE id = ${id}`]).pipe(
          sql.withTransaction,
          Effect.asVoid,
          Effect.orDie
        ),
      delete: (id) =>
        Effect.gen(function*() {
          yield* dropParts(id)
          yield* sql`DELETE FROM subscriber_import_errors WHERE import_id = ${id}`
          const deleted = yield* sql`DELETE FROM subscriber_imports WHERE id = ${id} RETURNING id`
          return deleted.length > 0
        }).pipe(sql.withTransaction, Effect.orDie),
      list: (query) =>
        selectPage(sql, {
          table: "subscriber_imports",
          sorts: { created_at: "created_at", updated_at: "updated_at" },
          filters: {
            status: (value) => sql.in("status", value.split(",").map((s) => s.trim())),
            email_list_id: (value) =>
              /^\d{1,10}$/.test(value.trim()) && Number(value) <= 2_147_483_647 ? sql`email_list_id = ${Number(value)}` : sql`1 = 0`
          }
        }, query, FromRow),
      transition: (id, from, to, changes) =>
        Effect.flatMap(
          sql`UPDATE subscriber_imports SET ${
            set({
              status: to,
              importedSubscribersCount: changes.importedSubscribersCount,
              errorCount: changes.errorCount,
              processedRows: changes.processedRows,
              windowRows: changes.windowRows,
              failureReason: changes.failureReason,
              lockedUntil: iso(changes.lockedUntil),
              startedAt: iso(changes.startedAt),
              finishedAt: iso(changes.finishedAt),
              updatedAt: iso(changes.updatedAt)
            })
          } WHERE id = ${id} AND status IN ${sql.in(from)} RETURNING *`,
          one
        ).pipe(
          Effect.tap((moved) =>
            Option.isNone(moved) ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (ms) =>
              insertEvents(sql, importStatusEvents(moved.value, to, changes.updatedAt ?? new Date(ms))))
          ),
          Effect.orDie
        ),
      claim: (now, leaseUntil) =>
        Effect.flatMap(
          sql`UPDATE subscriber_imports SET locked_until = ${leaseUntil.toISOString()} WHERE id IN (
            SELECT id FROM subscriber_imports
            WHERE status IN ('pending', 'importing') AND (locked_until IS NULL OR locked_until < ${now.toISOString()})
            ORDER BY id LIMIT 1 ${skipLocked}
          ) RETURNING *`,
          one
        ).pipe(Effect.orDie),
      errors: (id, query) =>
        selectPage(sql, {
          table: "subscriber_import_errors",
          sorts: { line: "line" },
          filters: {},
          scope: sql`import_id = ${id}`
        }, query, ImportRowError)
    })
  })
)
