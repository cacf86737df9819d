import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `email_list_count_changes`: changes of a list's per-status counters not yet added to its `email_lists` row. On
 * Postgres a subscriber's write records its change here instead of updating the list's row, which the transaction
 * would hold until its commit and every other writer of the list wait for; a background fold adds them up.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  yield* sql.unsafe(`CREATE TABLE email_list_count_changes (
    id ${pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"},
    email_list_id INTEGER NOT NULL,
    subscribed INTEGER NOT NULL DEFAULT 0,
    unconfirmed INTEGER NOT NULL DEFAULT 0,
    unsubscribed INTEGER NOT NULL DEFAULT 0
  )`)
  yield* sql.unsafe(`CREATE INDEX email_list_count_changes_list ON email_list_count_changes (email_list_id)`)
})
