import { SqlClient } from "@effect/sql"
import { type ClaimedWebhookDelivery, type WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { selectPage } from "../../selectPage.js"

/** Rows per multi-row INSERT (9 columns each). */
const CHUNK = 500

const Int = Schema.Union(Schema.Number, Schema.NumberFromString)
const DeliveryRow = Schema.Struct({ ...WebhookDelivery.fields, eventId: Int })
const FromRow = Schema.transform(DeliveryRow, Schema.typeSchema(WebhookDelivery), {
  strict: false,
  decode: (row) => new WebhookDelivery(row, true),
  encode: (delivery) => delivery
})
const decodeRows = Schema.decodeUnknown(Schema.Array(FromRow))

/**
 * WebhookDeliveryRepository over SqlClient. Claiming is one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED on
 * Postgres) of due, pending rows of enabled webhooks, so workers in several processes never send the same delivery
 * at once.
 */
export const SqlWebhookDeliveryRepository = Layer.effect(
  WebhookDeliveryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const enabled = sql.onDialectOrElse({ pg: () => sql.literal("w.enabled"), orElse: () => sql.literal("w.enabled = 1") })
    const skipLocked = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE OF d SKIP LOCKED"), orElse: () => sql.literal("") })
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (found) => Option.fromNullable(found[0]))

    return WebhookDeliveryRepository.of({
      insert: (deliveries) =>
        Effect.gen(function*() {
          let inserted = 0
          for (let at = 0; at < deliveries.length; at += CHUNK) {
            const rows = deliveries.slice(at, at + CHUNK).map((d) => ({
              uuid: d.uuid,
              webhookId: d.webhookId,
              eventId: d.eventId,
              eventType: d.eventType,
              payload: d.payload,
              status: "pending",
              attempts: 0,
              nextAttemptAt: d.at.toISOString(),
              createdAt: d.at.toISOString(),
              updatedAt: d.at.toISOString()
            }))
            inserted += (yield* sql`INSERT INTO webhook_deliveries ${sql.insert(rows)} ON CONFLICT DO NOTHING RETURNING id`).length
          }
          return inserted
        }).pipe(Effect.orDie),
      claim: ({ leaseUntil, limit, now, owner }) =>
        Effect.gen(function*() {
          const at = now.toISOString()
          const rows = yield* sql<{
            readonly id: number
            readonly webhookId: number
            readonly eventId: number | string
            readonly payload: string
            readonly attempts: number
          }>`UPDATE webhook_deliveries SET locked_until = ${leaseUntil.toISOString()}, lease_owner = ${owner}
            WHERE id IN (
              SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
              WHERE d.status = 'pending' AND d.next_attempt_at <= ${at} AND ${enabled}
                AND (d.locked_until IS NULL OR d.locked_until < ${at})
              ORDER BY d.next_attempt_at, d.id LIMIT ${limit} ${skipLocked}
            ) RETURNING id, webhook_id, event_id, payload, attempts`
          if (rows.length === 0) return []
          const targets = yield* sql<{ readonly id: number; readonly url: string; readonly secret: string; readonly failingSince: string | null }>`
            SELECT id, url, secret, failing_since FROM webhooks WHERE id IN ${sql.in([...new Set(rows.map((row) => row.webhookId))])}`
          const byId = new Map(targets.map((t) => [Number(t.id), t]))
          return rows.flatMap((row): Array<ClaimedWebhookDelivery> => {
            const target = byId.get(Number(row.webhookId))
            return target === undefined ? [] : [{
              id: row.id as ClaimedWebhookDelivery["id"],
              webhookId: row.webhookId as ClaimedWebhookDelivery["webhookId"],
              eventId: Number(row.eventId),
              payload: row.payload,
              attempts: Number(row.attempts),
              url: target.url,
              secret: target.secret,
              failingSince: target.failingSince === null ? null : new Date(target.failingSince)
            }]
          }).sort((a, b) => a.id - b.id)
        }).pipe(Effect.orDie),
      record: (attempts, at) =>
        Effect.gen(function*() {
          const stamp = at.toISOString()
          // one statement per outcome shape (typically: every success of a group), the durations mapped by a CASE
          const groups = new Map<string, Array<WebhookAttempt>>()
          for (const attempt of attempts) {
            const key = JSON.stringify([attempt.succeeded, attempt.retryAt, attempt.responseStatus, attempt.responseBody, attempt.error])
            groups.set(key, [...(groups.get(key) ?? []), attempt])
          }
          for (const group of groups.values()) {
            const first = group[0]!
            const status = first.succeeded ? "succeeded" : first.retryAt === null ? "failed" : "pending"
            const durations = sql.join(" ", false)(group.map((a) => sql`WHEN ${a.id} THEN ${a.durationMs}`))
            yield* sql`UPDATE webhook_deliveries SET ${
              sql.update({
                status,
                nextAttemptAt: first.succeeded ? null : first.retryAt?.toISOString() ?? null,
                lastAttemptAt: stamp,
                responseStatus: first.responseStatus,
                responseBody: first.responseBody,
                error: first.error,
                lockedUntil: null,
                leaseOwner: null,
                updatedAt: stamp
              })
            }, attempts = attempts + 1, delivered_at = ${first.succeeded ? stamp : null}, duration_ms = CAST(CASE id ${durations} END AS INTEGER)
            WHERE id IN ${sql.in(group.map((a) => a.id))}`
          }
        }).pipe(Effect.orDie),
      findByUuid: (webhookId, uuid) =>
        Effect.flatMap(sql`SELECT * FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND uuid = ${uuid}`, one).pipe(Effect.orDie),
      list: (webhookId, query) =>
        selectPage(sql, {
          table: "webhook_deliveries",
          sorts: { created_at: "created_at" },
          filters: {
            status: (value) => sql`status = ${value.trim().toLowerCase()}`,
            event_type: (value) => sql`event_type = ${value.trim()}`
          },
          scope: sql`webhook_id = ${webhookId}`
        }, query, FromRow),
      retry: (id, at) =>
        Effect.flatMap(
          sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${at.toISOString()}, locked_until = NULL,
              lease_owner = NULL, updated_at = ${at.toISOString()} WHERE id = ${id} RETURNING *`,
          one
        ).pipe(Effect.orDie)
    })
  })
)
