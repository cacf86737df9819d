import { SqlClient } from "@effect/sql"
import {
  type EmailListId,
  type ExistingSubscriber,
  type ImportBatch,
  ImportBatchRepository,
  type ImportedFields,
  type ImportPlan,
  type ImportRow,
  importSubscriberEvents,
  importTagEvents,
  newUuid,
  planImportBatch,
  subscriberStatus,
  type TagLink,
  tagKey,
  TagRepository
} from "@mailroom/core"
import { Effect, Layer, Option } from "effect"
import { chunks } from "../chunks.js"
import { isoText } from "../isoText.js"
import { moveTagCounts } from "../moveTagCounts.js"
import { retriedTransaction } from "../SqlTransactor.js"
import { LIST_COUNTS } from "../listCounts.js"
import { recordCountChanges } from "../sharedCounters.js"
import { searchKey } from "../subscriberColumns.js"
import { SyncWriter } from "../SyncWriter.js"
import type { InsertValue } from "../valuesInsert.js"
import { SqlTagRepository } from "./SqlTagRepository.js"
import { type ExistingSubscriberRow, type ImportBulkWrites, type NewSubscriberRows, sqlImportBulkWrites } from "./imports/ImportBulkWrites.js"
import { IMPORTED_COLUMNS } from "./imports/importColumns.js"

/** Refused rows per multi-row INSERT. */
const ERROR_CHUNK = 500

const date = (text: string | null) => (text === null ? null : new Date(text))
const addExisting = (found: Map<string, ExistingSubscriber>, rows: ReadonlyArray<ExistingSubscriberRow>) => {
  for (const row of rows) {
    found.set(row.email, {
      id: Number(row.id),
      firstName: row.firstName,
      lastName: row.lastName,
      extraAttributes: JSON.parse(row.extraAttributes) as Record<string, unknown>,
      subscribedAt: date(row.subscribedAt),
      unsubscribedAt: date(row.unsubscribedAt),
      lastImportId: row.lastImportId === null ? null : Number(row.lastImportId)
    })
  }
}

/** Writes the values of IMPORTED_COLUMNS for an imported row into `into` from `at`; the index after them. */
const writeImported = (row: ImportRow, fields: ImportedFields, importId: number, stamp: string, into: Array<InsertValue>, at: number): number => {
  into[at] = fields.firstName
  into[at + 1] = fields.lastName
  into[at + 2] = JSON.stringify(fields.extraAttributes)
  into[at + 3] = searchKey(row.email, fields.firstName, fields.lastName)
  into[at + 4] = fields.status
  into[at + 5] = fields.subscribedAt === null ? null : isoText(fields.subscribedAt)
  into[at + 6] = fields.unsubscribedAt === null ? null : isoText(fields.unsubscribedAt)
  into[at + 7] = stamp
  into[at + 8] = importId
  return at + 9
}

/** The values of IMPORTED_COLUMNS for a changed subscriber. */
const importedValues = (row: ImportRow, fields: ImportedFields, importId: number, stamp: string): Array<InsertValue> => {
  const values = new Array<InsertValue>(IMPORTED_COLUMNS.length)
  writeImported(row, fields, importId, stamp, values, 0)
  return values
}

/** The batch's new subscribers, each written into a statement's values when the insert reaches it. */
const insertRows = (plan: ImportPlan, batch: ImportBatch, stamp: string): NewSubscriberRows => ({
  length: plan.inserts.length,
  email: (index) => plan.inserts[index]!.row.email,
  write: (index, into, at) => {
    const { fields, row } = plan.inserts[index]!
    into[at] = newUuid()
    into[at + 1] = batch.emailListId
    into[at + 2] = row.email
    into[at + 3] = stamp
    return writeImported(row, fields, batch.importId, stamp, into, at + 4)
  }
})

/** A subscriber the batch wrote, with its row. */
interface Written {
  readonly id: number
  readonly row: ImportRow
}

/**
 * The distinct tag names of the written rows (first spelling wins). A batch's rows name a handful of tags, mostly in
 * the same spelling, so each spelling's key is made once rather than once a row (~3 % of an import's time).
 */
const tagNames = (...groups: ReadonlyArray<ReadonlyArray<Written>>): Array<string> => {
  const spellings = new Set<string>()
  for (const group of groups) for (const { row } of group) for (const tag of row.tags) spellings.add(tag)
  const names = new Map<string, string>()
  for (const tag of spellings) if (!names.has(tagKey(tag))) names.set(tagKey(tag), tag)
  return [...names.values()]
}

/** The subscriber-tag links of the written rows (`idOf` by key; each spelling's key made once). */
const tagLinks = (written: ReadonlyArray<Written>, idOf: ReadonlyMap<string, number>) => {
  const bySpelling = new Map<string, number | undefined>()
  const links: Array<{ readonly subscriberId: number; readonly tagId: number }> = []
  for (const { id, row } of written) {
    for (const tag of row.tags) {
      let tagId = bySpelling.get(tag)
      if (tagId === undefined && !bySpelling.has(tag)) bySpelling.set(tag, tagId = idOf.get(tagKey(tag)))
      if (tagId !== undefined) links.push({ subscriberId: id, tagId })
    }
  }
  return links
}

/** Whether an import's row count passed a power of two from 4,096 on (statistics are refreshed there). */
const doubled = (before: number, after: number) => after >= 4_096 && Math.floor(Math.log2(after)) > Math.floor(Math.log2(Math.max(1, before)))

/**
 * ImportBatchRepository over SqlClient, with the batch's bulk statements run by `bulkOf`. A batch is a handful of
 * set-based statements in one transaction: the progress guard (which also renews the lease), one look-up of the
 * batch's addresses, the changed subscribers updated and the new ones inserted, tags created and attached in bulk,
 * events recorded, counters adjusted by the rows actually changed, refused rows stored, and the import's counts moved.
 */
export const importBatchRepository = (
  bulkOf: (sql: SqlClient.SqlClient, writer: Option.Option<SyncWriter["Type"]>) => ImportBulkWrites
): Layer.Layer<ImportBatchRepository, never, SqlClient.SqlClient> => Layer.effect(
  ImportBatchRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tags = yield* TagRepository

    const bulk = bulkOf(sql, yield* Effect.serviceOption(SyncWriter))

    const existingOf = (emailListId: number, rows: ReadonlyArray<ImportRow>) =>
      Effect.map(bulk.existing(emailListId, rows.map((row) => row.email)), (found) => {
        const byEmail = new Map<string, ExistingSubscriber>()
        addExisting(byEmail, found)
        return byEmail
      })

    /**
     * Attaches the written subscribers' tags (an updated one's replaced first when the import says so), and says by how
     * much each tag's count moves (exact). New subscribers cannot have a link yet, so theirs are inserted without looking.
     */
    const attachTags = (batch: ImportBatch, inserted: ReadonlyArray<Written>, updated: ReadonlyArray<Written>) =>
      Effect.gen(function*() {
        const delta = new Map<number, number>()
        const count = (tagIds: ReadonlyArray<number>, by: number) => {
          for (const tagId of tagIds) delta.set(Number(tagId), (delta.get(Number(tagId)) ?? 0) + by)
        }
        const column = (rows: ReadonlyArray<{ readonly tagId: number }>) => rows.map((row) => row.tagId)
        const links = (rows: ReadonlyArray<TagLink>) => rows.map((row) => ({ subscriberId: Number(row.subscriberId), tagId: Number(row.tagId) }))
        const removed: Array<TagLink> = []
        const added: Array<TagLink> = []
        if (batch.rules.replaceTags) {
          for (const ids of chunks(updated.map((w) => w.id), 5_000)) {
            const gone = links(yield* sql<TagLink>`DELETE FROM subscriber_tags WHERE subscriber_id IN ${sql.in(ids)} RETURNING subscriber_id, tag_id`)
            count(column(gone), -1)
            removed.push(...gone)
          }
        }
        const names = tagNames(inserted, updated)
        if (names.length > 0) {
          const ensured = yield* tags.ensure(batch.emailListId as EmailListId, names, "default", batch.at)
          const idOf = new Map(ensured.map((tag) => [tagKey(tag.name), tag.id as number]))
          const fresh = tagLinks(inserted, idOf)
          yield* bulk.link(fresh)
          count(fresh.map((link) => link.tagId), 1)
          added.push(...fresh)
          for (const part of chunks(tagLinks(updated, idOf), 2_000)) {
            const linked = links(yield* sql<TagLink>`INSERT INTO subscriber_tags ${sql.insert(part)} ON CONFLICT DO NOTHING RETURNING subscriber_id, tag_id`)
            count(column(linked), 1)
            added.push(...linked)
          }
        }
        return { removed, added, delta }
      })

    /** The names of tags by id (for tag events). */
    const tagNamesOf = (links: ReadonlyArray<TagLink>) =>
      Effect.gen(function*() {
        const names = new Map<number, string>()
        for (const ids of chunks([...new Set(links.map((link) => link.tagId))], 5_000)) {
          for (const tag of yield* sql<{ readonly id: number; readonly name: string }>`SELECT id, name FROM tags WHERE id IN ${sql.in(ids)}`) {
            names.set(Number(tag.id), tag.name)
          }
        }
        return names
      })

    /**
     * Postgres plans the address look-up from table statistics; a list that grows from nothing to a million rows
     * faster than autovacuum analyzes it (or with autovacuum off) gets a scan of the whole list per batch (143 ms
     * instead of ~10 at a million rows). The table's size and the list column are what that plan needs: analyzing
     * that column alone takes ~80 ms at 200,000 rows against ~350 for every column (autovacuum does those later).
     * SQLite's planner picks the unique index without statistics.
     */
    const refreshStatistics = sql.onDialectOrElse({ pg: () => sql`ANALYZE subscribers (email_list_id)`, orElse: () => Effect.void })

    const write = (batch: ImportBatch) =>
      Effect.gen(function*() {
        const stamp = batch.at.toISOString()
        const guard = yield* sql`UPDATE subscriber_imports SET locked_until = ${batch.leaseUntil.toISOString()}
          WHERE id = ${batch.importId} AND status = 'importing' AND processed_rows = ${batch.processedBefore} RETURNING id`
        if (guard.length === 0) return Option.none()
        const existing = yield* existingOf(batch.emailListId, batch.rows)
        const before = new Map([...existing.values()].map((found) => [found.id, subscriberStatus(found)]))
        const plan = planImportBatch(batch.rows, existing, batch.rules, batch.at)
        for (const ids of chunks(plan.refusedIds, 5_000)) {
          yield* sql`UPDATE subscribers SET last_import_id = ${batch.importId} WHERE id IN ${sql.in(ids)}`
        }
        yield* bulk.update(plan.updates.map(({ fields, id, row }) => ({ id, values: importedValues(row, fields, batch.importId, stamp) })))
        const ids = yield* bulk.insert(insertRows(plan, batch, stamp))
        const inserted: Array<Written> = plan.inserts.map(({ row }, i) => ({ id: ids[i]!, row }))
        const tagged = yield* attachTags(batch, inserted, plan.updates)
        yield* bulk.record([
          ...importSubscriberEvents(
            batch.emailListId,
            inserted.map(({ id }, i) => ({ id, status: plan.inserts[i]!.fields.status })),
            plan.updates.map(({ fields, id }) => ({ id, from: before.get(id)!, to: fields.status })),
            batch.at
          ),
          ...importTagEvents(batch.emailListId, tagged.removed, tagged.added, yield* tagNamesOf([...tagged.removed, ...tagged.added]), batch.at)
        ])
        yield* recordCountChanges(sql, LIST_COUNTS, new Map([[batch.emailListId, plan.statusDelta]]))
        yield* moveTagCounts(sql, tagged.delta)
        const errors = [...batch.rejected, ...plan.refused]
        for (const part of chunks(errors, ERROR_CHUNK)) {
          yield* sql`INSERT INTO subscriber_import_errors ${
            sql.insert(part.map((e) => ({ importId: batch.importId, line: e.line, email: e.email, reason: e.reason.slice(0, 1000) })))
          }`
        }
        if (doubled(batch.processedBefore, batch.processedAfter)) yield* refreshStatistics
        yield* sql`UPDATE subscriber_imports SET processed_rows = ${batch.processedAfter},
          imported_subscribers_count = ${batch.processedAfter}, error_count = error_count + ${errors.length}, updated_at = ${stamp}
          WHERE id = ${batch.importId}`
        return Option.some({ rejected: errors.length })
      }).pipe(retriedTransaction(sql), Effect.orDie)

    return ImportBatchRepository.of({
      write,
      unsubscribeOthers: (importId, emailListId, at) =>
        Effect.gen(function*() {
          const others = sql`email_list_id = ${emailListId} AND status = 'subscribed'
            AND (last_import_id IS NULL OR last_import_id <> ${importId})`
          const [counted] = yield* sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM subscribers WHERE ${others}`
          const total = Number(counted?.total ?? 0)
          if (total === 0) return 0
          const stamp = at.toISOString()
          yield* sql`INSERT INTO events (type, created_at, email_list_id, subscriber_id)
            SELECT 'subscriber.unsubscribed', ${stamp}, email_list_id, id FROM subscribers WHERE ${others} ORDER BY id`
          yield* sql`UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = ${stamp}, updated_at = ${stamp} WHERE ${others}`
          yield* recordCountChanges(sql, LIST_COUNTS, new Map([[emailListId, new Map([["subscribed", -total], ["unsubscribed", total]])]]))
          return total
        }).pipe(retriedTransaction(sql), Effect.orDie)
    })
  })
).pipe(Layer.provide(SqlTagRepository))

/** ImportBatchRepository in portable SQL (multi-row inserts, one UPDATE per changed subscriber). */
export const SqlImportBatchRepository = importBatchRepository(sqlImportBulkWrites)
