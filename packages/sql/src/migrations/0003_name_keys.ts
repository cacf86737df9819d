import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { nameKey } from "../nameKey.js"

/** Unicode-safe name sorting and search for templates and email lists: a `name_key` column filled in JavaScript. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const table of ["templates", "email_lists"]) {
    yield* sql.unsafe(`ALTER TABLE ${table} ADD COLUMN name_key TEXT NOT NULL DEFAULT ''`)
    const rows = yield* sql<{ readonly id: number; readonly name: string }>`SELECT id, name FROM ${sql(table)}`
    for (const row of rows) yield* sql`UPDATE ${sql(table)} SET name_key = ${nameKey(row.name)} WHERE id = ${row.id}`
    yield* sql.unsafe(`DROP INDEX ${table}_name`)
    yield* sql.unsafe(`CREATE INDEX ${table}_name ON ${table} (name_key, id)`)
  }
})
