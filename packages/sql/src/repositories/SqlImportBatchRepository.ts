import { SqlClient } from "@effect/sql"
import {
  decideImport,
  type EmailListId,
  type ExistingSubscriber,
  type ImportBatch,
  ImportBatchRepository,
  type ImportRow,
  newUuid,
  type RejectedRow,
  type SubscriberStatus,
  tagKey,
  TagRepository
} from "@mailroom/core"
import { Effect, Layer, Option } from "effect"
import { searchKey, statusCounter } from "../subscriberColumns.js"
import { SqlTagRepository } from "./SqlTagRepository.js"

/** Rows per multi-row INSERT (13 columns each: under SQLite's 32,766 and Postgres' 65,535 parameters). */
const INSERT_CHUNK = 500

interface ExistingRow {
  readonly id: number
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: string
  readonly subscribedAt: string | null
  readonly unsubscribedAt: string | null
  readonly lastImportId: number | null
}

const date = (text: string | null) => (text === null ? null : new Date(text))
const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/**
 * ImportBatchRepository over SqlClient. A batch is a handful of set-based statements in one transaction: the
 * progress guard (which also renews the lease), one look-up of the batch's addresses, multi-row inserts, one update
 * per changed subscriber, tags created and attached in bulk, counters adjusted by the rows actually changed, refused
 * rows stored, and the import's counts moved.
 */
export const SqlImportBatchRepository = Layer.effect(
  ImportBatchRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tags = yield* TagRepository

    const existingOf = (emailListId: number, rows: ReadonlyArray<ImportRow>) =>
      Effect.gen(function*() {
        const emails = [...new Set(rows.map((row) => row.email))]
        const found = new Map<string, ExistingSubscriber>()
        for (const part of chunks(emails, 5_000)) {
          const rows = yield* sql<ExistingRow>`SELECT id, email, first_name, last_name, extra_attributes, subscribed_at,
              unsubscribed_at, last_import_id FROM subscribers WHERE email_list_id = ${emailListId} AND email IN ${sql.in(part)}`
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
        return found
      })

    /** Attaches each written subscriber's tags (replacing them first when the import says so); counts kept exact. */
    const attachTags = (
      batch: ImportBatch,
      written: ReadonlyArray<{ readonly id: number; readonly row: ImportRow; readonly updated: boolean }>
    ) =>
      Effect.gen(function*() {
        const delta = new Map<number, number>()
        const count = (rows: ReadonlyArray<{ readonly tagId: number }>, by: number) => {
          for (const { tagId } of rows) delta.set(Number(tagId), (delta.get(Number(tagId)) ?? 0) + by)
        }
        const replaced = batch.rules.replaceTags ? written.filter((w) => w.updated).map((w) => w.id) : []
        for (const ids of chunks(replaced, 5_000)) {
          count(yield* sql<{ readonly tagId: number }>`DELETE FROM subscriber_tags WHERE subscriber_id IN ${sql.in(ids)} RETURNING tag_id`, -1)
        }
        const names = new Map<string, string>()
        for (const { row } of written) for (const tag of row.tags) if (!names.has(tagKey(tag))) names.set(tagKey(tag), tag)
        if (names.size > 0) {
          const ensured = yield* tags.ensure(batch.emailListId as EmailListId, [...names.values()], "default", batch.at)
          const idOf = new Map(ensured.map((tag) => [tagKey(tag.name), tag.id as number]))
          const links = written.flatMap(({ id, row }) =>
            row.tags.flatMap((tag) => {
              const tagId = idOf.get(tagKey(tag))
              return tagId === undefined ? [] : [{ subscriberId: id, tagId }]
            })
          )
          for (const part of chunks(links, 2_000)) {
            count(yield* sql<{ readonly tagId: number }>`INSERT INTO subscriber_tags ${sql.insert(part)} ON CONFLICT DO NOTHING RETURNING tag_id`, 1)
          }
        }
        for (const [tagId, by] of delta) {
          if (by !== 0) yield* sql`UPDATE tags SET subscriber_count = subscriber_count + ${by} WHERE id = ${tagId}`
        }
      })

    const write = (batch: ImportBatch) =>
      Effect.gen(function*() {
        const stamp = batch.at.toISOString()
        const guard = yield* sql`UPDATE subscriber_imports SET locked_until = ${batch.leaseUntil.toISOString()}
          WHERE id = ${batch.importId} AND status = 'importing' AND processed_rows = ${batch.processedBefore} RETURNING id`
        if (guard.length === 0) return Option.none()
        const known = yield* existingOf(batch.emailListId, batch.rows)
        const errors: Array<RejectedRow> = [...batch.rejected]
        const inserts: Array<Record<string, string | number | null>> = []
        const insertedRows: Array<ImportRow> = []
        const updated: Array<{ readonly id: number; readonly row: ImportRow }> = []
        const statusDelta = new Map<SubscriberStatus, number>()
        const shift = (status: SubscriberStatus, by: number) => statusDelta.set(status, (statusDelta.get(status) ?? 0) + by)
        for (const row of batch.rows) {
          const existing = known.get(row.email)
          const decision = decideImport(existing, row, batch.rules, batch.at)
          if (decision._tag === "Duplicate") continue
          if (decision._tag === "Reject") {
            errors.push({ line: row.line, email: row.email, reason: decision.reason })
            // marked as seen by this import, so a later row for the address is a skipped duplicate, not a second refusal
            if (existing !== undefined) {
              yield* sql`UPDATE subscribers SET last_import_id = ${batch.importId} WHERE id = ${existing.id}`
              known.set(row.email, { ...existing, lastImportId: batch.importId })
            }
            continue
          }
          const { fields } = decision
          const columns = {
            firstName: fields.firstName,
            lastName: fields.lastName,
            extraAttributes: JSON.stringify(fields.extraAttributes),
            searchKey: searchKey(row.email, fields.firstName, fields.lastName),
            status: fields.status,
            subscribedAt: fields.subscribedAt?.toISOString() ?? null,
            unsubscribedAt: fields.unsubscribedAt?.toISOString() ?? null,
            updatedAt: stamp,
            lastImportId: batch.importId
          }
          shift(fields.status, 1)
          if (decision._tag === "Insert") {
            inserts.push({ ...columns, uuid: newUuid(), emailListId: batch.emailListId, email: row.email, createdAt: stamp })
            insertedRows.push(row)
          } else {
            shift(decision.from, -1)
            yield* sql`UPDATE subscribers SET ${sql.update(columns)} WHERE id = ${decision.id}`
            updated.push({ id: decision.id, row })
          }
          known.set(row.email, { ...fields, id: decision._tag === "Update" ? decision.id : 0, lastImportId: batch.importId })
        }
        const insertedIds = new Map<string, number>()
        for (const part of chunks(inserts, INSERT_CHUNK)) {
          const rows = yield* sql<{ readonly id: number; readonly email: string }>`INSERT INTO subscribers ${sql.insert(part)} RETURNING id, email`
          for (const row of rows) insertedIds.set(row.email, Number(row.id))
        }
        yield* attachTags(batch, [
          ...insertedRows.map((row) => ({ id: insertedIds.get(row.email)!, row, updated: false })),
          ...updated.map((u) => ({ ...u, updated: true }))
        ])
        const counters = [...statusDelta].filter(([, by]) => by !== 0).map(([status, by]) => `${statusCounter[status]} = ${statusCounter[status]} + ${by}`)
        if (counters.length > 0) yield* sql`UPDATE email_lists SET ${sql.literal(counters.join(", "))} WHERE id = ${batch.emailListId}`
        for (const part of chunks(errors, INSERT_CHUNK)) {
          yield* sql`INSERT INTO subscriber_import_errors ${
            sql.insert(part.map((e) => ({ importId: batch.importId, line: e.line, email: e.email, reason: e.reason.slice(0, 1000) })))
          }`
        }
        yield* sql`UPDATE subscriber_imports SET processed_rows = ${batch.processedAfter},
          imported_subscribers_count = ${batch.processedAfter}, error_count = error_count + ${errors.length}, updated_at = ${stamp}
          WHERE id = ${batch.importId}`
        return Option.some({ rejected: errors.length })
      }).pipe(sql.withTransaction, Effect.orDie)

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
          yield* sql`UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = ${stamp}, updated_at = ${stamp} WHERE ${others}`
          yield* sql`UPDATE email_lists SET active_subscribers_count = active_subscribers_count - ${total},
            unsubscribed_count = unsubscribed_count + ${total} WHERE id = ${emailListId}`
          return total
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
).pipe(Layer.provide(SqlTagRepository))
