import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { pgTypes, sqliteTypes } from "../columns.js"

const statements = (pg: boolean, pk: string): ReadonlyArray<string> => [
  `CREATE TABLE events (
    id ${pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"},
    tx BIGINT NOT NULL DEFAULT ${pg ? "(pg_current_xact_id()::text::bigint)" : "0"},
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    email_list_id INTEGER,
    subscriber_id INTEGER,
    campaign_id INTEGER,
    send_id INTEGER,
    ref_id INTEGER,
    data TEXT
  )`,
  `CREATE INDEX events_order ON events (tx, id)`,
  `CREATE INDEX events_created ON events (created_at)`,
  `CREATE TABLE event_consumers (
    name TEXT PRIMARY KEY,
    tx BIGINT NOT NULL,
    last_id BIGINT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE webhooks (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT,
    email_list_ids TEXT,
    secret TEXT NOT NULL,
    enabled ${pg ? "BOOLEAN" : "INTEGER"} NOT NULL,
    disabled_reason TEXT,
    failing_since TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE TABLE webhook_deliveries (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    webhook_id INTEGER NOT NULL,
    event_id BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TEXT,
    last_attempt_at TEXT,
    locked_until TEXT,
    lease_owner TEXT,
    response_status INTEGER,
    response_body TEXT,
    error TEXT,
    duration_ms INTEGER,
    delivered_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, event_id)`,
  `CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, id)`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`
]

/**
 * The outbox of domain events and the consumers' positions; outgoing webhooks and their deliveries. On Postgres each event carries the id of the transaction
 * that wrote it (`tx`), so readers can wait for transactions still running instead of skipping their late commits.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  for (const statement of statements(pg, pg ? pgTypes.pk : sqliteTypes.pk)) yield* sql.unsafe(statement)
})
