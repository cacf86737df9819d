import { Schema } from "effect"

/** A boolean column: stored as 1/0 (SQLite has no boolean type; Postgres reads '1'/'0' as booleans). */
export const SqlBoolean = Schema.transform(Schema.Union(Schema.Boolean, Schema.Number), Schema.Boolean, {
  strict: true,
  decode: (value) => value === true || value === 1,
  encode: (value) => (value ? 1 : 0)
})

/** Column types that differ between the dialects, for use in DDL. */
export interface ColumnTypes {
  readonly pk: string
  readonly bool: string
}

/** SQLite column types. */
export const sqliteTypes: ColumnTypes = { pk: "INTEGER PRIMARY KEY AUTOINCREMENT", bool: "INTEGER" }
/** Postgres column types. */
export const pgTypes: ColumnTypes = { pk: "SERIAL PRIMARY KEY", bool: "BOOLEAN" }
