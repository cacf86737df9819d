import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `email_list_count_changes` and `tag_count_changes`: changes of lists' per-status counters and tags' subscriber
 * counts not yet added to their rows. On Postgres a subscriber's write records its changes here instead of updating
 * those rows, which the transaction would hold until its commit and every other writer of the list wait for; a
 * background fold adds them up (sharedCounters.ts).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = sql.onDialectOrElse({ pg: () => "BIGSERIAL PRIMARY KEY", orElse: () => "INTEGER PRIMARY KEY AUTOINCREMENT" })
  yield* sql.unsafe(`CREATE TABLE email_list_count_changes (
    id ${id},
    email_list_id INTEGER NOT NULL,
    subscribed INTEGER NOT NULL DEFAULT 0,
    unconfirmed INTEGER NOT NULL DEFAULT 0,
    unsubscribed INTEGER NOT NULL DEFAULT 0
  )`)
  yield* sql.unsafe(`CREATE INDEX email_list_count_changes_list ON email_list_count_changes (email_list_id)`)
  yield* sql.unsafe(`CREATE TABLE tag_count_changes (
    id ${id},
    tag_id INTEGER NOT NULL,
    subscribers INTEGER NOT NULL DEFAULT 0
  )`)
  yield* sql.unsafe(`CREATE INDEX tag_count_changes_tag ON tag_count_changes (tag_id)`)
})
