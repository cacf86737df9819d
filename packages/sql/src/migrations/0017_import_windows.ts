import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `subscriber_imports.window_rows`: how many data rows the import's worker sorts by address before writing them, chosen
 * when the import begins, so that a restart resumes with the same windows. 0 (every import begun before this column)
 * writes rows in the CSV's order.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE subscriber_imports ADD COLUMN window_rows INTEGER NOT NULL DEFAULT 0`)
})
