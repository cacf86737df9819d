import { SqlClient } from "@effect/sql"
import {
  type ClaimedTransactionalSend,
  type LoggedTransactionalMail,
  NamedAddress,
  type NewTransactionalMail,
  type SendId,
  type SendUuid,
  StoredAttachment,
  TransactionalMail,
  type TransactionalMailId,
  TransactionalMailRepository,
  TransactionalMailStatus
} from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../../columns.js"
import { leaseSends } from "../../leaseSends.js"
import { containsPattern, orderClause, selectRows } from "../../selectPage.js"

const Addresses = Schema.parseJson(Schema.Array(NamedAddress))
const { bcc: _b, cc: _c, from: _f, replyTo: _r, to: _t, ...plain } = TransactionalMail.fields

/** A mail row: addresses and attachments as JSON, booleans as 1/0. */
const MailRow = Schema.Struct({
  ...plain,
  fromAddress: Schema.parseJson(NamedAddress),
  toAddresses: Addresses,
  ccAddresses: Addresses,
  bccAddresses: Addresses,
  replyToAddresses: Addresses,
  attachments: Schema.parseJson(Schema.Array(StoredAttachment)),
  fake: SqlBoolean,
  stored: SqlBoolean,
  trackOpens: SqlBoolean,
  trackClicks: SqlBoolean
})
const decodeLatest = Schema.decodeUnknown(Schema.Array(Schema.Struct({
  transactionalMailId: Schema.Number,
  uuid: Schema.String,
  failureReason: Schema.NullOr(Schema.String),
  transportMessageId: Schema.NullOr(Schema.String),
  status: TransactionalMailStatus
})))
const decodeTotals = Schema.decodeUnknown(Schema.Array(Schema.Struct({
  transactionalMailId: Schema.Number,
  opens: Schema.Number,
  clicks: Schema.Number
})))
const decodeMails = Schema.decodeUnknown(Schema.Array(MailRow))

const toMail = ({ bccAddresses, ccAddresses, fromAddress, replyToAddresses, toAddresses, ...row }: typeof MailRow.Type) =>
  new TransactionalMail({ ...row, from: fromAddress, to: toAddresses, cc: ccAddresses, bcc: bccAddresses, replyTo: replyToAddresses }, true)

/** What the log searches: the addresses with their names, lower-cased. */
const searchText = (mail: NewTransactionalMail) =>
  [...mail.to, ...mail.cc, ...mail.bcc, mail.from].map((a) => `${a.name ?? ""} <${a.email}>`).join(", ").toLowerCase()

/** A Message-ID as stored: in angle brackets. */
const messageId = (value: string) => `<${value.trim().replace(/^<|>$/g, "")}>`

/** TransactionalMailRepository over SqlClient; the log shows each mail with its latest send. */
export const SqlTransactionalMailRepository = Layer.effect(
  TransactionalMailRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /**
     * The log view of these mails: each one's latest send and the opens and clicks of all its sends, looked up for
     * the page only (two indexed queries), so a page of a long log costs what its rows cost.
     */
    const withSends = (mails: ReadonlyArray<TransactionalMail>) =>
      Effect.gen(function*() {
        if (mails.length === 0) return []
        const ids = sql.in(mails.map((mail) => mail.id))
        const [latest, totals] = yield* Effect.all([
          decodeLatest(yield* sql`SELECT transactional_mail_id, uuid, failure_reason, transport_message_id,
              CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'pending' END AS status
            FROM sends WHERE id IN (SELECT max(id) FROM sends WHERE transactional_mail_id IN ${ids} GROUP BY transactional_mail_id)`),
          decodeTotals(yield* sql`SELECT transactional_mail_id, CAST(sum(open_count) AS INTEGER) AS opens,
              CAST(sum(click_count) AS INTEGER) AS clicks
            FROM sends WHERE transactional_mail_id IN ${ids} GROUP BY transactional_mail_id`)
        ])
        const sends = new Map(latest.map((row) => [row.transactionalMailId, row]))
        const counts = new Map(totals.map((row) => [row.transactionalMailId, row]))
        return mails.map((mail): LoggedTransactionalMail => {
          const send = sends.get(mail.id)
          return {
            mail,
            sendUuid: send?.uuid ?? null,
            status: send?.status ?? (mail.fake ? "sent" : "pending"),
            failureReason: send?.failureReason ?? null,
            transportMessageId: send?.transportMessageId ?? null,
            opens: counts.get(mail.id)?.opens ?? 0,
            clicks: counts.get(mail.id)?.clicks ?? 0
          }
        })
      })
    const stored = sql`stored = ${1}`

    return TransactionalMailRepository.of({
      insert: (mail) =>
        Effect.gen(function*() {
          // written by hand, not through Schema.encode: this runs once per accepted mail, and the encoder cost more
          // than the insert itself; the mail is returned as given with its new id (its bodies and files not read back)
          const [inserted] = yield* sql<{ readonly id: number }>`INSERT INTO transactional_mails ${sql.insert({
            uuid: mail.uuid,
            templateId: mail.templateId,
            mailName: mail.mailName,
            subject: mail.subject,
            fromAddress: JSON.stringify(mail.from),
            toAddresses: JSON.stringify(mail.to),
            ccAddresses: JSON.stringify(mail.cc),
            bccAddresses: JSON.stringify(mail.bcc),
            replyToAddresses: JSON.stringify(mail.replyTo),
            searchText: searchText(mail),
            html: mail.html,
            text: mail.text,
            attachments: JSON.stringify(mail.attachments),
            fake: mail.fake ? 1 : 0,
            stored: mail.stored ? 1 : 0,
            mailer: mail.mailer,
            trackOpens: mail.trackOpens ? 1 : 0,
            trackClicks: mail.trackClicks ? 1 : 0,
            createdAt: mail.createdAt.toISOString(),
            updatedAt: mail.updatedAt.toISOString()
          })} RETURNING id`
          return new TransactionalMail({ ...mail, id: Number(inserted!.id) as TransactionalMailId }, true)
        }).pipe(Effect.orDie),
      addSend: ({ at, email, mailId, uuid }) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          const [row] = yield* sql<{ readonly id: number }>`INSERT INTO sends (uuid, transactional_mail_id, subscriber_id,
              email, attempts, open_count, click_count, created_at, updated_at)
            VALUES (${uuid}, ${mailId},
              (SELECT id FROM subscribers WHERE email_list_id IN (SELECT id FROM email_lists) AND email = ${email} ORDER BY id LIMIT 1),
              ${email}, 0, 0, 0, ${stamp}, ${stamp}) RETURNING id`
          return { id: Number(row!.id) as SendId, uuid }
        }).pipe(Effect.orDie),
      findById: (id) =>
        Effect.flatMap(sql`SELECT * FROM transactional_mails WHERE id = ${id}`, decodeMails).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMail)),
          Effect.orDie
        ),
      findByIds: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : Effect.flatMap(sql`SELECT * FROM transactional_mails WHERE id IN ${sql.in(ids)}`, decodeMails).pipe(
          Effect.map((rows) => rows.map(toMail)),
          Effect.orDie
        ),
      findByUuid: (uuid) =>
        Effect.gen(function*() {
          const mails = (yield* decodeMails(yield* sql`SELECT * FROM transactional_mails WHERE uuid = ${uuid} AND ${stored}`)).map(toMail)
          return Option.fromNullable((yield* withSends(mails))[0])
        }).pipe(Effect.orDie),
      list: (query) =>
        Effect.gen(function*() {
          const f = query.filters
          const conditions = [
            ...(f.search === undefined ? [] : [
              sql`(lower(subject) LIKE ${containsPattern(f.search)} ESCAPE '\\' OR search_text LIKE ${containsPattern(f.search)} ESCAPE '\\')`
            ]),
            ...(f.mail_name === undefined ? [] : [sql`lower(mail_name) = ${f.mail_name.trim().toLowerCase()}`]),
            ...(f.transport_message_id === undefined ? [] : [
              sql`id IN (SELECT transactional_mail_id FROM sends WHERE transport_message_id = ${messageId(f.transport_message_id)})`
            ])
          ]
          const order = orderClause({ created_at: "created_at", subject: "lower(subject)" }, [], query.sort)
          const { rows, total } = yield* selectRows(sql, sql`transactional_mails`, [stored, ...conditions], order, query)
          return { items: yield* withSends((yield* decodeMails(rows)).map(toMail)), total }
        }).pipe(Effect.orDie),
      claim: ({ leaseUntil, limit, now, owner }) =>
        Effect.gen(function*() {
          const rows = yield* leaseSends(sql, sql`transactional_mail_id IS NOT NULL`, { now, leaseUntil, limit, owner }, "sends_transactional_pending")
          return [...rows].sort((a, b) => a.id - b.id).map((row): ClaimedTransactionalSend => ({
            id: Number(row.id) as SendId,
            uuid: row.uuid as SendUuid,
            mailId: Number(row.transactionalMailId!) as TransactionalMailId,
            attempts: Number(row.attempts),
            deferredSince: row.deferredSince === null ? null : new Date(row.deferredSince)
          }))
        }).pipe(Effect.orDie),
      forgetDelivered: (ids) =>
        ids.length === 0 ? Effect.void : Effect.gen(function*() {
          const gone = yield* sql<{ readonly id: number }>`DELETE FROM transactional_mails
            WHERE id IN ${sql.in(ids)} AND stored = ${0}
              AND NOT EXISTS (SELECT 1 FROM sends p WHERE p.transactional_mail_id = transactional_mails.id
                              AND p.sent_at IS NULL AND p.failed_at IS NULL)
            RETURNING id`
          if (gone.length > 0) yield* sql`DELETE FROM sends WHERE transactional_mail_id IN ${sql.in(gone.map((row) => row.id))}`
        }).pipe(Effect.orDie),
      countClick: (sendId, at) =>
        sql<{ readonly clickCount: number }>`UPDATE sends SET click_count = click_count + 1,
            first_clicked_at = COALESCE(first_clicked_at, ${at.toISOString()}), last_clicked_at = ${at.toISOString()},
            updated_at = ${at.toISOString()} WHERE id = ${sendId} RETURNING click_count`.pipe(
          Effect.map((rows) => ({ first: Number(rows[0]?.clickCount ?? 0) === 1 })),
          Effect.orDie
        )
    })
  })
)
