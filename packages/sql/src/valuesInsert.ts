import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { SyncStatements } from "./SyncWriter.js"

/** A value of an inserted row. */
export type InsertValue = string | number | null

/** The SQL texts of recent INSERT shapes (table, columns, rows, dialect); full chunks recur, tails come and go. */
const texts = new Map<string, string>()
const REMEMBERED = 16

/** `?, ?, …`: `count` placeholders of SQLite's. */
export const questionMarks = (count: number): string => Array.from({ length: count }, () => "?").join(", ")

/**
 * The text of an INSERT of `count` rows of `columns` into `table` (`$n` placeholders on Postgres, `?` elsewhere), with
 * `onConflict` (e.g. `ON CONFLICT DO NOTHING`) and `RETURNING returning` where given, made once per shape.
 */
export const insertText = (pg: boolean, table: string, columns: ReadonlyArray<string>, count: number, returning: string, onConflict = "") => {
  const key = `${pg}|${table}|${columns.join(",")}|${count}|${returning}|${onConflict}`
  let text = texts.get(key)
  if (text === undefined) {
    const rows: Array<string> = []
    for (let row = 0, n = 0; row < count; row++) {
      const marks: Array<string> = []
      for (let column = 0; column < columns.length; column++) marks.push(pg ? `$${++n}` : "?")
      rows.push(`(${marks.join(",")})`)
    }
    text = `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${rows.join(",")}${onConflict === "" ? "" : ` ${onConflict}`}${
      returning === "" ? "" : ` RETURNING ${returning}`
    }`
    if (texts.size >= REMEMBERED) texts.clear()
    texts.set(key, text)
  }
  return text
}

/**
 * A multi-row INSERT of `count` rows whose values are `values` (row after row, `columns.length` each), as one statement
 * with its text made once per shape: the statement compiler of @effect/sql builds the text and a record per row again
 * for every insert, which was a fifth of everything an import of 200,000 rows allocated.
 */
export const valuesInsert = <A extends object = never>(
  sql: SqlClient.SqlClient,
  table: string,
  columns: ReadonlyArray<string>,
  values: ReadonlyArray<InsertValue>,
  returning = ""
): Effect.Effect<ReadonlyArray<A>, SqlError> => {
  const count = values.length / columns.length
  if (count === 0) return Effect.succeed([])
  const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  return sql.unsafe<A>(insertText(pg, table, columns, count, returning), values)
}

/** `valuesInsert` through a `SyncWriter`'s statements (SQLite): the same INSERT, run at once on the writing connection. */
export const runValuesInsert = (statements: SyncStatements, table: string, columns: ReadonlyArray<string>, values: ReadonlyArray<InsertValue>): void => {
  if (values.length > 0) statements.run(insertText(false, table, columns, values.length / columns.length, ""), values)
}
