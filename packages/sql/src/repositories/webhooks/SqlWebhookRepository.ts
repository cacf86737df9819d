import { SqlClient } from "@effect/sql"
import { EventType, Webhook, WebhookRepository } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../../columns.js"
import { selectPage } from "../../selectPage.js"

/** A webhooks row: lists stored as JSON, the flag as 1/0. */
const WebhookRow = Schema.Struct({
  ...Webhook.fields,
  events: Schema.NullOr(Schema.parseJson(Schema.Array(EventType))),
  emailListIds: Schema.NullOr(Schema.parseJson(Schema.Array(Schema.Number))),
  enabled: SqlBoolean
})
const FromRow = Schema.transform(WebhookRow, Schema.typeSchema(Webhook), {
  strict: false,
  decode: (row) => new Webhook(row, true),
  encode: (webhook) => webhook
})
const decodeRows = Schema.decodeUnknown(Schema.Array(FromRow))

/** The columns of a webhook's writable fields. */
const columns = (webhook: Partial<Omit<Webhook, "id">>) => {
  const out: Record<string, string | number | boolean | null> = {}
  if (webhook.uuid !== undefined) out["uuid"] = webhook.uuid
  if (webhook.name !== undefined) out["name"] = webhook.name
  if (webhook.url !== undefined) out["url"] = webhook.url
  if (webhook.events !== undefined) out["events"] = webhook.events === null ? null : JSON.stringify(webhook.events)
  if (webhook.emailListIds !== undefined) out["emailListIds"] = webhook.emailListIds === null ? null : JSON.stringify(webhook.emailListIds)
  if (webhook.secret !== undefined) out["secret"] = webhook.secret
  if (webhook.enabled !== undefined) out["enabled"] = webhook.enabled ? 1 : 0
  if (webhook.disabledReason !== undefined) out["disabledReason"] = webhook.disabledReason
  if (webhook.failingSince !== undefined) out["failingSince"] = webhook.failingSince?.toISOString() ?? null
  if (webhook.createdAt !== undefined) out["createdAt"] = webhook.createdAt.toISOString()
  if (webhook.updatedAt !== undefined) out["updatedAt"] = webhook.updatedAt.toISOString()
  return out
}

/** WebhookRepository over SqlClient. */
export const SqlWebhookRepository = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (found) => Option.fromNullable(found[0]))
    return WebhookRepository.of({
      insert: (webhook) =>
        sql`INSERT INTO webhooks ${sql.insert(columns(webhook))} RETURNING *`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      update: (id, changes) =>
        Object.keys(columns(changes)).length === 0
          ? Effect.flatMap(sql`SELECT * FROM webhooks WHERE id = ${id}`, one).pipe(Effect.orDie)
          : Effect.flatMap(sql`UPDATE webhooks SET ${sql.update(columns(changes))} WHERE id = ${id} RETURNING *`, one).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM webhooks WHERE id = ${id}`, one).pipe(Effect.orDie),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM webhooks WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      list: (query) =>
        selectPage(sql, {
          table: "webhooks",
          sorts: { created_at: "created_at", name: "lower(name)" },
          filters: {
            enabled: (value) => (/^(1|true)$/i.test(value.trim()) ? sql`enabled = ${sql.literal(sqlTrue(sql))}` : sql`enabled <> ${sql.literal(sqlTrue(sql))}`)
          }
        }, query, FromRow),
      enabled: Effect.flatMap(sql`SELECT * FROM webhooks WHERE enabled = ${sql.literal(sqlTrue(sql))} ORDER BY id`, decodeRows).pipe(Effect.orDie),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM webhook_deliveries WHERE webhook_id = ${id}`
          return (yield* sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`).length > 0
        }).pipe(Effect.orDie)
    })
  })
)

/** The literal true of the dialect's boolean column. */
const sqlTrue = (sql: SqlClient.SqlClient) => sql.onDialectOrElse({ pg: () => "TRUE", orElse: () => "1" })
