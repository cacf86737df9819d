import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Drops indexes of `events` that every event (~2.4 per imported subscriber) wrote to and no statement needs any more.
 * `events_created`: retention deletes the ids before the first recent event, found by walking ids from the oldest
 * (events are numbered as they are written, with the time they were written). `events_order (tx, id)` on SQLite only:
 * `tx` is always 0 there and the outbox reads in id order; Postgres reads in (tx, id) order and keeps it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`DROP INDEX IF EXISTS events_created`)
  yield* sql.onDialectOrElse({ sqlite: () => sql.unsafe(`DROP INDEX IF EXISTS events_order`), orElse: () => Effect.void })
})
