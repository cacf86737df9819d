import { SqlClient } from "@effect/sql"
import {
  type ListedTransactionalTemplate,
  TransactionalTemplate,
  TransactionalTemplateRepository,
  type TransactionalTemplateStatistics
} from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../../columns.js"
import { deleteById } from "../../deleteById.js"
import { nameKey } from "../../nameKey.js"
import { rowsDecoder } from "../../rowsDecoder.js"
import { containsPattern, selectPage } from "../../selectPage.js"

const Recipients = Schema.NullOr(Schema.parseJson(Schema.Array(Schema.String)))
const { bcc: _bcc, cc: _cc, to: _to, ...plain } = TransactionalTemplate.fields

/** A template row: booleans as 1/0 and the recipient arrays as JSON (`to` is a reserved word). */
const TemplateRow = Schema.Struct({
  ...plain,
  toAddresses: Recipients,
  ccAddresses: Recipients,
  bccAddresses: Recipients,
  storeMail: SqlBoolean,
  trackOpens: SqlBoolean,
  trackClicks: SqlBoolean
})
const decodeRows = Schema.decodeUnknown(Schema.Array(TemplateRow))
const encodeRow = Schema.encode(TemplateRow.pipe(Schema.omit("id", "uuid", "createdAt")))

const toTemplate = ({ bccAddresses, ccAddresses, toAddresses, ...row }: typeof TemplateRow.Type) =>
  new TransactionalTemplate({ ...row, to: toAddresses, cc: ccAddresses, bcc: bccAddresses }, true)

const StatisticsRow = Schema.Struct({
  templateId: Schema.Number,
  sentCount: Schema.Number,
  openCount: Schema.Number,
  uniqueOpenCount: Schema.Number,
  clickCount: Schema.Number,
  uniqueClickCount: Schema.Number,
  bounceCount: Schema.Number
})
const NO_STATISTICS: TransactionalTemplateStatistics = {
  sentCount: 0,
  openCount: 0,
  uniqueOpenCount: 0,
  clickCount: 0,
  uniqueClickCount: 0,
  bounceCount: 0
}

/** TransactionalTemplateRepository over SqlClient; statistics are aggregated over the sends of the log. */
export const SqlTransactionalTemplateRepository = Layer.effect(
  TransactionalTemplateRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeRows(rows), (decoded) => Option.map(Option.fromNullable(decoded[0]), toTemplate))
    const columns = (template: Omit<TransactionalTemplate, "id" | "uuid" | "createdAt">) =>
      Effect.map(
        encodeRow({ ...template, toAddresses: template.to, ccAddresses: template.cc, bccAddresses: template.bcc }),
        (row) => ({ ...row, nameKey: nameKey(template.name) })
      )

    /** The statistics of these templates, by id (templates without mails have none). */
    const statisticsOf = (ids: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        if (ids.length === 0) return new Map<number, TransactionalTemplateStatistics>()
        const rows = yield* sql`SELECT m.template_id,
            CAST(count(s.sent_at) AS INTEGER) AS sent_count,
            CAST(COALESCE(sum(s.open_count), 0) AS INTEGER) AS open_count,
            CAST(count(CASE WHEN s.open_count > 0 THEN 1 END) AS INTEGER) AS unique_open_count,
            CAST(COALESCE(sum(s.click_count), 0) AS INTEGER) AS click_count,
            CAST(count(CASE WHEN s.click_count > 0 THEN 1 END) AS INTEGER) AS unique_click_count,
            CAST((SELECT count(DISTINCT b.send_id) FROM bounces b JOIN sends bs ON bs.id = b.send_id
                    JOIN transactional_mails bm ON bm.id = bs.transactional_mail_id
                    WHERE bm.template_id = m.template_id) AS INTEGER) AS bounce_count
          FROM transactional_mails m JOIN sends s ON s.transactional_mail_id = m.id
          WHERE m.template_id IN ${sql.in(ids)} GROUP BY m.template_id`
        const decoded = yield* rowsDecoder(StatisticsRow)(rows)
        return new Map(decoded.map(({ templateId, ...statistics }): [number, TransactionalTemplateStatistics] => [templateId, statistics]))
      })

    return TransactionalTemplateRepository.of({
      insert: (template) =>
        Effect.gen(function*() {
          const row = { ...(yield* columns(template)), uuid: template.uuid, createdAt: template.createdAt.toISOString() }
          return Option.getOrThrow(yield* one(yield* sql`INSERT INTO transactional_templates ${sql.insert(row)} RETURNING *`))
        }).pipe(Effect.orDie),
      update: (id, changes) =>
        Effect.gen(function*() {
          return yield* one(yield* sql`UPDATE transactional_templates SET ${sql.update(yield* columns(changes))}
                                      WHERE id = ${id} RETURNING *`)
        }).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM transactional_templates WHERE id = ${id}`, one).pipe(Effect.orDie),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM transactional_templates WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      findByName: (name) =>
        Effect.flatMap(sql`SELECT * FROM transactional_templates WHERE name_key = ${nameKey(name)}`, one).pipe(Effect.orDie),
      delete: (id) => deleteById(sql, "transactional_templates", id),
      list: (query) =>
        Effect.gen(function*() {
          const page = yield* selectPage(sql, {
            table: "transactional_templates",
            sorts: { name: "name_key", created_at: "created_at", subject: "lower(subject)" },
            filters: {
              search: (value) =>
                sql`(name_key LIKE ${containsPattern(value)} ESCAPE '\\' OR lower(subject) LIKE ${containsPattern(value)} ESCAPE '\\')`,
              name: (value) => sql`name_key = ${nameKey(value.trim())}`,
              uuid: (value) => sql`uuid = ${value.trim().toLowerCase()}`
            }
          }, query, TemplateRow)
          const statistics = yield* statisticsOf(page.items.map((row) => row.id))
          return {
            total: page.total,
            items: page.items.map((row): ListedTransactionalTemplate => ({
              template: toTemplate(row),
              statistics: statistics.get(row.id) ?? NO_STATISTICS
            }))
          }
        }).pipe(Effect.orDie),
      statistics: (id) => Effect.map(statisticsOf([id]), (found) => found.get(id) ?? NO_STATISTICS).pipe(Effect.orDie)
    })
  })
)
