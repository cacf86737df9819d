import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Open and click tracking can be switched off per campaign (both on by default, as before). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [bool, yes] = sql.onDialectOrElse({ pg: () => ["BOOLEAN", "true"], orElse: () => ["INTEGER", "1"] })
  yield* sql.unsafe(`ALTER TABLE campaigns ADD COLUMN track_opens ${bool} NOT NULL DEFAULT ${yes}`)
  yield* sql.unsafe(`ALTER TABLE campaigns ADD COLUMN track_clicks ${bool} NOT NULL DEFAULT ${yes}`)
})
