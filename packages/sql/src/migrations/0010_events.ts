import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const statements = (pg: boolean): ReadonlyArray<string> => [
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
  `CREATE TABLE event_consumers (
    name TEXT PRIMARY KEY,
    tx BIGINT NOT NULL,
    last_id BIGINT NOT NULL,
    updated_at TEXT NOT NULL
  )`
]

/**
 * The outbox of domain events and the consumers' positions. On Postgres each event carries the id of the transaction
 * that wrote it (`tx`), so readers can wait for transactions still running instead of skipping their late commits.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  for (const statement of statements(pg)) yield* sql.unsafe(statement)
})
