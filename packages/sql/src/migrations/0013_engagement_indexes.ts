import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * First opens and first clicks by time over every mail, for the daily statistics (`GET /api/statistics/daily`): partial
 * indexes, so they hold only the mails opened or clicked and a range of days is an index range scan.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX sends_first_opened ON sends (first_opened_at) WHERE first_opened_at IS NOT NULL`)
  yield* sql.unsafe(`CREATE INDEX sends_first_clicked ON sends (first_clicked_at) WHERE first_clicked_at IS NOT NULL`)
})
