import { SqlClient, type Statement } from "@effect/sql"
import {
  bareMessageId,
  type ClaimedSend,
  type DeliveryResult,
  type ListedSend,
  Send,
  SendRepository,
  type SendStatus
} from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { insertSendEvents } from "../events/insertEvents.js"
import { claimedSendFields } from "../claimedSendFields.js"
import { SqlBoolean } from "../columns.js"
import { leaseSends } from "../leaseSends.js"
import { RecipientRow } from "../RecipientRow.js"
import { orderClause, selectRows } from "../selectPage.js"
import { segmentCondition } from "../subscriberConditions.js"

const ListedRow = Schema.Struct({
  ...Send.fields,
  deliveryUncertain: SqlBoolean,
  campaignUuid: Schema.NullOr(Schema.String),
  transactionalMailUuid: Schema.NullOr(Schema.String),
  transactionalMailStored: Schema.optional(Schema.NullOr(SqlBoolean)),
  automationMailUuid: Schema.NullOr(Schema.String),
  subscriberUuid: Schema.NullOr(Schema.String)
})
const decodeListed = Schema.decodeUnknown(Schema.Array(ListedRow))
const decodeRecipients = Schema.decodeUnknown(Schema.Array(RecipientRow))

const groupBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string) => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const group = groups.get(key(item))
    if (group === undefined) groups.set(key(item), [item])
    else group.push(item)
  }
  return groups
}

/** SendRepository over SqlClient: set-based audience freezing, leased batch claims (`SKIP LOCKED` on Postgres). */
export const SqlSendRepository = Layer.effect(
  SendRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const newUuid = sql.onDialectOrElse({
      pg: () => sql.literal("gen_random_uuid()::text"),
      orElse: () =>
        sql.literal(
          "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
            "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"
        )
    })
    const listedSource = sql`(SELECT s.*, c.uuid AS campaign_uuid, t.uuid AS transactional_mail_uuid,
                              t.stored AS transactional_mail_stored, a.uuid AS automation_mail_uuid, sub.uuid AS subscriber_uuid
                              FROM sends s
                              LEFT JOIN campaigns c ON c.id = s.campaign_id
                              LEFT JOIN transactional_mails t ON t.id = s.transactional_mail_id
                              LEFT JOIN automation_mails a ON a.id = s.automation_mail_id
                              LEFT JOIN subscribers sub ON sub.id = s.subscriber_id) listed`
    /** Each status as a condition on a send row, written as the partial indexes `sends_pending` and `sends_failed` are. */
    const statusCondition: Record<SendStatus, Statement.Fragment> = {
      pending: sql`sent_at IS NULL AND failed_at IS NULL`,
      sent: sql`sent_at IS NOT NULL`,
      failed: sql`failed_at IS NOT NULL AND sent_at IS NULL`
    }
    const toListed = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeListed(rows), (decoded) =>
        decoded.map((
          { automationMailUuid, campaignUuid, subscriberUuid, transactionalMailStored: _stored, transactionalMailUuid, ...send }
        ): ListedSend => ({
          send: new Send(send, true),
          campaignUuid,
          transactionalMailUuid,
          automationMailUuid,
          subscriberUuid
        })))

    return SendRepository.of({
      freezeBatch: ({ afterSubscriberId, at, campaignId, emailListId, limit, segment }) =>
        Effect.gen(function*() {
          const [range] = yield* sql<{ readonly covered: number; readonly last: number | null }>`
            SELECT CAST(count(*) AS INTEGER) AS covered, MAX(id) AS last FROM (
              SELECT id FROM subscribers WHERE email_list_id = ${emailListId} AND id > ${afterSubscriberId}
              ORDER BY id LIMIT ${limit}) batch`
          const covered = Number(range?.covered ?? 0)
          if (covered === 0) return { covered: 0, lastSubscriberId: afterSubscriberId }
          const last = Number(range!.last)
          const stamp = at.toISOString()
          const eligible = segment === null ? sql`status = 'subscribed'` : segmentCondition(sql, segment)
          yield* sql`INSERT INTO sends (uuid, campaign_id, subscriber_id, email, attempts, open_count, click_count,
                                        created_at, updated_at)
            SELECT ${newUuid}, ${campaignId}, id, email, 0, 0, 0, ${stamp}, ${stamp} FROM subscribers
            WHERE email_list_id = ${emailListId} AND id > ${afterSubscriberId} AND id <= ${last} AND ${eligible}
              AND NOT EXISTS (SELECT 1 FROM suppressions x WHERE x.email = subscribers.email)
            ON CONFLICT DO NOTHING`
          return { covered, lastSubscriberId: last }
        }).pipe(Effect.orDie),
      claim: ({ campaignId, leaseUntil, limit, now, owner }) =>
        Effect.gen(function*() {
          const claimed = yield* leaseSends(sql, sql`campaign_id = ${campaignId}`, { now, leaseUntil, limit, owner })
          const ids = claimed.flatMap((row) => (row.subscriberId === null ? [] : [row.subscriberId]))
          const recipients = ids.length === 0 ? [] : yield* decodeRecipients(
            yield* sql`SELECT id, uuid, email, first_name, last_name, extra_attributes, status FROM subscribers
                       WHERE id IN ${sql.in(ids)}`
          )
          const byId = new Map(recipients.map((r) => [r.id as number, r]))
          return [...claimed].sort((a, b) => a.id - b.id).map((row): ClaimedSend => {
            const recipient = row.subscriberId === null ? undefined : byId.get(row.subscriberId)
            return {
              ...claimedSendFields(row),
              subscriber: recipient === undefined ? null : { ...recipient, subscribed: recipient.status === "subscribed" }
            }
          })
        }).pipe(Effect.orDie),
      renew: ({ ids, leaseUntil, owner }) => {
        if (ids.length === 0) return Effect.succeed(0)
        const held = sql`id IN ${sql.in(ids)} AND lease_owner = ${owner} AND sent_at IS NULL AND failed_at IS NULL`
        const until = leaseUntil.toISOString()
        return sql.onDialectOrElse({
          // rows a recording transaction holds are skipped (it finishes them; the next renewal takes any it gives
          // back): waiting for them, in an order that is not the recording's, deadlocked with it
          pg: () => sql`UPDATE sends SET locked_until = ${until}
            WHERE id IN (SELECT id FROM sends WHERE ${held} ORDER BY id FOR UPDATE SKIP LOCKED) RETURNING id`,
          orElse: () => sql`UPDATE sends SET locked_until = ${until} WHERE ${held} RETURNING id`
        }).pipe(Effect.map((rows) => rows.length), Effect.orDie)
      },
      release: ({ ids, owner }) =>
        ids.length === 0 ? Effect.void : sql`UPDATE sends SET locked_until = NULL, lease_owner = NULL
          WHERE id IN ${sql.in(ids)} AND lease_owner = ${owner} AND sent_at IS NULL AND failed_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      record: (results, at) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          const done = sql`locked_until = NULL, lease_owner = NULL, updated_at = ${stamp}`
          // the first outcome recorded wins: a send already sent or failed is left as it is
          const unfinished = sql`sent_at IS NULL AND failed_at IS NULL`
          const changed = (rows: ReadonlyArray<{ readonly id: number }>) => rows.map((row) => Number(row.id))
          const sent = results.filter((r): r is Extract<DeliveryResult, { _tag: "Sent" }> => r._tag === "Sent")
          const sentIds: Array<number> = []
          for (const uncertain of [false, true]) {
            const plain = sent.filter((r) => r.transportMessageId === null && (r.uncertain === true) === uncertain).map((r) => r.id)
            if (plain.length === 0) continue
            sentIds.push(...changed(
              yield* sql<{ readonly id: number }>`UPDATE sends SET sent_at = ${stamp}, failure_reason = NULL, retry_at = NULL,
                       deferred_since = NULL, delivery_uncertain = ${uncertain ? 1 : 0}, attempts = attempts + 1, ${done}
                       WHERE id IN ${sql.in(plain)} AND ${unfinished} RETURNING id`
            ))
          }
          // sends with their own message id: one statement per group, the ids mapped by a CASE
          for (const uncertain of [false, true]) {
            const named = sent.filter((r) => r.transportMessageId !== null && (r.uncertain === true) === uncertain)
            if (named.length === 0) continue
            const ids = sql.join(" ", false)(named.map((r) => sql`WHEN ${r.id} THEN ${r.transportMessageId!.slice(0, 1000)}`))
            sentIds.push(...changed(
              yield* sql<{ readonly id: number }>`UPDATE sends SET sent_at = ${stamp}, failure_reason = NULL, retry_at = NULL,
                       deferred_since = NULL, delivery_uncertain = ${uncertain ? 1 : 0}, attempts = attempts + 1, ${done},
                       transport_message_id = CASE id ${ids} END WHERE id IN ${sql.in(named.map((r) => r.id))} AND ${unfinished}
                       RETURNING id`
            ))
          }
          const failed = results.filter((r): r is Extract<DeliveryResult, { _tag: "Failed" }> => r._tag === "Failed")
          const failedIds: Array<number> = []
          for (const group of groupBy(failed, (r) => `${r.attempted === true} ${r.reason}`).values()) {
            const tried = group[0]!.attempted === true ? 1 : 0
            failedIds.push(...changed(
              yield* sql<{ readonly id: number }>`UPDATE sends SET failed_at = ${stamp}, failure_reason = ${group[0]!.reason.slice(0, 1000)},
                       attempts = attempts + ${tried}, ${done} WHERE id IN ${sql.in(group.map((r) => r.id))} AND ${unfinished}
                       RETURNING id`
            ))
          }
          yield* insertSendEvents(sql, "mail.sent", sentIds, at)
          yield* insertSendEvents(sql, "transactional_mail.sent", sentIds, at, sql.literal("s.transactional_mail_id IS NOT NULL"))
          yield* insertSendEvents(sql, "mail.failed", failedIds, at)
          const retries = results.filter((r): r is Extract<DeliveryResult, { _tag: "Retry" }> => r._tag === "Retry")
          for (const group of groupBy(retries, (r) => `${r.retryAt.toISOString()} ${r.reason}`).values()) {
            yield* sql`UPDATE sends SET retry_at = ${group[0]!.retryAt.toISOString()}, failure_reason = ${group[0]!.reason.slice(0, 1000)},
                       deferred_since = COALESCE(deferred_since, ${stamp}), attempts = attempts + 1, ${done}
                       WHERE id IN ${sql.in(group.map((r) => r.id))} AND ${unfinished}`
          }
          return sentIds.length
        }).pipe(Effect.orDie),
      pendingCount: (campaignId) =>
        sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM sends
          WHERE campaign_id = ${campaignId} AND sent_at IS NULL AND failed_at IS NULL`.pipe(
          Effect.map((rows) => Number(rows[0]?.total ?? 0)),
          Effect.orDie
        ),
      sentCount: (campaignId) =>
        sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM sends
          WHERE campaign_id = ${campaignId} AND sent_at IS NOT NULL`.pipe(
          Effect.map((rows) => Number(rows[0]?.total ?? 0)),
          Effect.orDie
        ),
      findByUuid: (uuid) =>
        Effect.flatMap(sql`SELECT * FROM ${listedSource} WHERE uuid = ${uuid}`, toListed).pipe(
          Effect.map((found) => Option.fromNullable(found[0])),
          Effect.orDie
        ),
      findByIds: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : Effect.flatMap(
          sql`SELECT * FROM ${listedSource} WHERE id IN ${sql.in([...new Set(ids)])} ORDER BY id`,
          toListed
        ).pipe(Effect.orDie),
      latestSentTo: (email) =>
        Effect.flatMap(
          sql`SELECT * FROM ${listedSource} WHERE email = ${email} AND sent_at IS NOT NULL ORDER BY sent_at DESC, id DESC LIMIT 1`,
          toListed
        ).pipe(Effect.map((found) => Option.map(Option.fromNullable(found[0]), (l) => l.send)), Effect.orDie),
      findByTransportMessageId: (messageId) => {
        const bare = bareMessageId(messageId)
        return Effect.flatMap(
          sql`SELECT * FROM ${listedSource} WHERE transport_message_id IN (${bare}, ${`<${bare}>`}) ORDER BY id DESC LIMIT 1`,
          toListed
        ).pipe(Effect.map((found) => Option.map(Option.fromNullable(found[0]), (l) => l.send)), Effect.orDie)
      },
      list: (query) =>
        Effect.gen(function*() {
          const f = query.filters
          const uuid = (value: string) => value.trim().toLowerCase()
          const conditions = [
            // a mail sent with `store: false` has no log item: its send is not listed either
            sql`(transactional_mail_id IS NULL OR transactional_mail_stored = ${1})`,
            ...(f.subscriber_uuid === undefined ? [] : [sql`subscriber_uuid = ${uuid(f.subscriber_uuid)}`]),
            ...(f.campaign_uuid === undefined ? [] : [sql`campaign_uuid = ${uuid(f.campaign_uuid)}`]),
            ...(f.transactional_mail_log_item_uuid === undefined
              ? []
              : [sql`transactional_mail_uuid = ${uuid(f.transactional_mail_log_item_uuid)}`]),
            ...(f.automation_mail_uuid === undefined ? [] : [sql`automation_mail_uuid = ${uuid(f.automation_mail_uuid)}`]),
            // a status the collection does not take (a query built by hand) matches nothing
            ...(f.status === undefined ? [] : [statusCondition[f.status as SendStatus] ?? sql`1 = 0`])
          ]
          const order = orderClause({ sent_at: "sent_at" }, ["sent_at"], query.sort)
          const { rows, total } = yield* selectRows(sql, listedSource, conditions, order, query)
          return { items: yield* toListed(rows), total }
        }).pipe(Effect.orDie),
      delete: (id) =>
        sql`DELETE FROM sends WHERE id = ${id} RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    })
  })
)
