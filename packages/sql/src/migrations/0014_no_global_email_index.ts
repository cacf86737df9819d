import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Drops `subscribers (email)`: a second index in random order that every new subscriber wrote to (an import of
 * 200,000 random addresses on SQLite ran 11 % faster on average without it, bench/HISTORY.md). Look-ups of an address
 * on every list go through `subscribers (email_list_id, email)`, one probe per list.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`DROP INDEX IF EXISTS subscribers_email`)
})
