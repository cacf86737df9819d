import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Deletes the row with this id (or other key column); true when a row was deleted. Failures are defects. */
export const deleteById = (sql: SqlClient.SqlClient, table: string, id: number | string, column = "id"): Effect.Effect<boolean> =>
  sql`DELETE FROM ${sql(table)} WHERE ${sql(column)} = ${id} RETURNING id`.pipe(
    Effect.map((rows) => rows.length > 0),
    Effect.orDie
  )
