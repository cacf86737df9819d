import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The failed sends of a campaign, for `GET /api/sends?filter[status]=failed` (pending ones have `sends_pending`): a
 * partial index, so it stays as small as the failures and costs nothing while mails go out.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX sends_failed ON sends (campaign_id, id) WHERE failed_at IS NOT NULL AND sent_at IS NULL`)
})
