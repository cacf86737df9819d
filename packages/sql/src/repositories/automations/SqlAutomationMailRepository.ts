import { SqlClient } from "@effect/sql"
import {
  AutomationMail,
  type AutomationMailId,
  type AutomationMailLink,
  AutomationMailRepository,
  type ClaimedAutomationSend
} from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { claimedSendFields } from "../../claimedSendFields.js"
import { SqlBoolean } from "../../columns.js"
import { leaseSends } from "../../leaseSends.js"
import { RecipientRow } from "../../RecipientRow.js"
import { containsPattern, selectPage } from "../../selectPage.js"
import { type MailTables, mailStatistics } from "../mailStatistics.js"
import { recordLinkClick } from "../recordLinkClick.js"

/** Where an automation mail's statistics are stored. */
const automationMailTables: MailTables = {
  mailColumn: "automation_mail_id",
  links: "automation_mail_links",
  clicks: "automation_mail_clicks",
  unsubscribes: "automation_mail_unsubscribes"
}

/** A mail row: fields as JSON, booleans as 1/0. */
const MailRow = Schema.Struct({
  ...AutomationMail.fields,
  fields: Schema.parseJson(AutomationMail.fields.fields),
  utmTags: SqlBoolean,
  addSubscriberTags: SqlBoolean,
  addSubscriberLinkTags: SqlBoolean,
  trackOpens: SqlBoolean,
  trackClicks: SqlBoolean
})
const decodeMails = Schema.decodeUnknown(Schema.Array(MailRow))
const encodeChanges = Schema.encode(MailRow.pipe(Schema.omit(
  "id",
  "uuid",
  "createdAt",
  "sentToNumberOfSubscribers",
  "openCount",
  "uniqueOpenCount",
  "clickCount",
  "uniqueClickCount",
  "unsubscribeCount",
  "bounceCount"
)))
const encodeNew = Schema.encode(MailRow.pipe(Schema.omit("id")))

/** A claimed send's subscriber with its list's name and sender defaults. */
const ListRecipientRow = Schema.Struct({
  ...RecipientRow.fields,
  listId: Schema.Number,
  listUuid: Schema.String,
  listName: Schema.String,
  defaultFromEmail: Schema.String,
  defaultFromName: Schema.NullOr(Schema.String),
  defaultReplyToEmail: Schema.NullOr(Schema.String),
  defaultReplyToName: Schema.NullOr(Schema.String)
})
const decodeRecipients = Schema.decodeUnknown(Schema.Array(ListRecipientRow))

/** Rows per INSERT of queued sends (well under SQLite's limit of bound parameters). */
const QUEUE_CHUNK = 1_000

/** Counter deltas and their columns. */
const counterColumns = {
  sentToNumberOfSubscribers: "sent_to_number_of_subscribers",
  openCount: "open_count",
  uniqueOpenCount: "unique_open_count",
  clickCount: "click_count",
  uniqueClickCount: "unique_click_count",
  unsubscribeCount: "unsubscribe_count",
  bounceCount: "bounce_count"
} as const

/** AutomationMailRepository over SqlClient: set-based queueing (ON CONFLICT DO NOTHING), leased batch claims. */
export const SqlAutomationMailRepository = Layer.effect(
  AutomationMailRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const toMails = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeMails(rows), (decoded) => decoded.map((row) => new AutomationMail(row, true)))
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(toMails(rows), (mails) => Option.fromNullable(mails[0]))
    const toLink = (row: { readonly id: number; readonly automationMailId: number; readonly url: string }): AutomationMailLink => ({
      id: Number(row.id),
      automationMailId: Number(row.automationMailId) as AutomationMailId,
      url: row.url
    })

    return AutomationMailRepository.of({
      insert: (mail) =>
        Effect.gen(function*() {
          const row = yield* encodeNew(mail)
          return Option.getOrThrow(yield* one(yield* sql`INSERT INTO automation_mails ${sql.insert(row)} RETURNING *`))
        }).pipe(Effect.orDie),
      update: (id, changes) =>
        Effect.gen(function*() {
          const row = yield* encodeChanges(changes)
          return yield* one(yield* sql`UPDATE automation_mails SET ${sql.update(row)} WHERE id = ${id} RETURNING *`)
        }).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM automation_mails WHERE id = ${id}`, one).pipe(Effect.orDie),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM automation_mails WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      findByIds: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : Effect.flatMap(sql`SELECT * FROM automation_mails WHERE id IN ${sql.in([...new Set(ids)])}`, toMails).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          const deleted = yield* sql`DELETE FROM automation_mails WHERE id = ${id} RETURNING id`
          if (deleted.length === 0) return false
          yield* sql`DELETE FROM automation_mail_clicks WHERE automation_mail_id = ${id}`
          yield* sql`DELETE FROM automation_mail_links WHERE automation_mail_id = ${id}`
          yield* sql`DELETE FROM automation_mail_unsubscribes WHERE automation_mail_id = ${id}`
          return true
        }).pipe(Effect.orDie),
      list: (query) =>
        Effect.flatMap(
          selectPage(sql, {
            table: "automation_mails",
            sorts: { name: "lower(name)", created_at: "created_at" },
            filters: {
              search: (value) =>
                sql`(lower(name) LIKE ${containsPattern(value)} ESCAPE '\\' OR lower(subject) LIKE ${containsPattern(value)} ESCAPE '\\')`,
              name: (value) => sql`lower(name) = ${value.trim().toLowerCase()}`,
              uuid: (value) => sql`uuid = ${value.trim().toLowerCase()}`
            }
          }, query, MailRow),
          (page) => Effect.succeed({ total: page.total, items: page.items.map((row) => new AutomationMail(row, true)) })
        ),
      queueSends: (sends, at) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          let inserted = 0
          for (let start = 0; start < sends.length; start += QUEUE_CHUNK) {
            const rows = sends.slice(start, start + QUEUE_CHUNK).map((send) => ({
              uuid: send.uuid,
              automationMailId: send.mailId,
              automationRunId: send.runId,
              subscriberId: send.subscriberId,
              email: send.email,
              attempts: 0,
              openCount: 0,
              clickCount: 0,
              createdAt: stamp,
              updatedAt: stamp
            }))
            inserted += (yield* sql`INSERT INTO sends ${sql.insert(rows)} ON CONFLICT DO NOTHING RETURNING id`).length
          }
          return inserted
        }).pipe(Effect.orDie),
      claim: ({ leaseUntil, limit, now, owner }) =>
        Effect.gen(function*() {
          const claimed = yield* leaseSends(
            sql,
            sql`automation_mail_id IS NOT NULL`,
            { now, leaseUntil, limit, owner },
            "sends_automation_pending"
          )
          const ids = [...new Set(claimed.flatMap((row) => (row.subscriberId === null ? [] : [row.subscriberId])))]
          const recipients = ids.length === 0 ? [] : yield* decodeRecipients(
            yield* sql`SELECT s.id, s.uuid, s.email, s.first_name, s.last_name, s.extra_attributes, s.status,
                         l.id AS list_id, l.uuid AS list_uuid, l.name AS list_name, l.default_from_email, l.default_from_name,
                         l.default_reply_to_email, l.default_reply_to_name
                       FROM subscribers s JOIN email_lists l ON l.id = s.email_list_id WHERE s.id IN ${sql.in(ids)}`
          )
          const byId = new Map(recipients.map((r) => [r.id as number, r]))
          const mailIds = [...new Set(claimed.map((row) => Number(row.automationMailId)))]
          const versions = mailIds.length === 0 ? [] : yield* sql<{ readonly id: number; readonly updatedAt: string }>`
            SELECT id, updated_at FROM automation_mails WHERE id IN ${sql.in(mailIds)}`
          const versionOf = new Map(versions.map((v) => [Number(v.id), new Date(v.updatedAt)]))
          return [...claimed].sort((a, b) => a.id - b.id).map((row): ClaimedAutomationSend => {
            const r = row.subscriberId === null ? undefined : byId.get(row.subscriberId)
            return {
              ...claimedSendFields(row),
              mailId: Number(row.automationMailId) as AutomationMailId,
              mailUpdatedAt: versionOf.get(Number(row.automationMailId)) ?? null,
              subscriber: r === undefined ? null : {
                id: r.id,
                uuid: r.uuid,
                email: r.email,
                firstName: r.firstName,
                lastName: r.lastName,
                extraAttributes: r.extraAttributes,
                subscribed: r.status === "subscribed"
              },
              list: r === undefined ? null : {
                id: r.listId,
                uuid: r.listUuid,
                name: r.listName,
                defaultFromEmail: r.defaultFromEmail,
                defaultFromName: r.defaultFromName,
                defaultReplyToEmail: r.defaultReplyToEmail,
                defaultReplyToName: r.defaultReplyToName
              }
            }
          })
        }).pipe(Effect.orDie),
      addCounters: (id, delta) => {
        const parts = Object.entries(delta).filter(([, value]) => value !== undefined && value !== 0)
          .map(([key, value]) => {
            const column = counterColumns[key as keyof typeof counterColumns]
            return `${column} = ${column} + ${Math.trunc(value!)}`
          })
        return parts.length === 0 ? Effect.void : sql`UPDATE automation_mails SET ${sql.literal(parts.join(", "))} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      ensureLinks: (id, urls) =>
        urls.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
          yield* sql`INSERT INTO automation_mail_links ${sql.insert(urls.map((url) => ({ automationMailId: id, url })))} ON CONFLICT DO NOTHING`
          const rows = yield* sql<{ readonly id: number; readonly automationMailId: number; readonly url: string }>`
            SELECT id, automation_mail_id, url FROM automation_mail_links WHERE automation_mail_id = ${id} AND url IN ${sql.in(urls)}`
          const byUrl = new Map(rows.map((row) => [row.url, toLink(row)]))
          return urls.flatMap((url) => byUrl.get(url) ?? [])
        }).pipe(Effect.orDie),
      findLink: (linkId) =>
        sql<{ readonly id: number; readonly automationMailId: number; readonly url: string }>`
          SELECT id, automation_mail_id, url FROM automation_mail_links WHERE id = ${linkId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toLink)),
          Effect.orDie
        ),
      recordClick: recordLinkClick(sql, automationMailTables),
      recordUnsubscribe: ({ at, email, mailId, sendId, subscriberId }) =>
        sql`INSERT INTO automation_mail_unsubscribes ${
          sql.insert({ automationMailId: mailId, sendId, subscriberId, email, createdAt: at.toISOString() })
        } ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      ...mailStatistics<AutomationMailId>(sql, automationMailTables)
    })
  })
)
