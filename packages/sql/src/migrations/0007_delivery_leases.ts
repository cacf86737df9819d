import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const statements = (bool: string, no: string): ReadonlyArray<string> => [
  `ALTER TABLE sends ADD COLUMN lease_owner TEXT`,
  `ALTER TABLE sends ADD COLUMN deferred_since TEXT`,
  `ALTER TABLE sends ADD COLUMN delivery_uncertain ${bool} NOT NULL DEFAULT ${no}`,
  `CREATE INDEX sends_email ON sends (email, sent_at)`,
  `CREATE INDEX subscribers_email ON subscribers (email)`,
  `CREATE INDEX bounces_email ON bounces (email, created_at)`
]

/**
 * Delivery that survives faults: the owner of a send's lease (renewed while its mail waits or is in flight, released
 * on pause), when its temporary failures began (retries are budgeted by time), whether its outcome is unknown; and
 * look-ups by address for the bounce policy.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [bool, no] = sql.onDialectOrElse({ pg: () => ["BOOLEAN", "false"], orElse: () => ["INTEGER", "0"] })
  for (const statement of statements(bool, no)) yield* sql.unsafe(statement)
})
