import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { finished } from "node:stream/promises"
import type { PoolClient } from "pg"
import { from as copyFrom } from "pg-copy-streams"

/** A value of a copied row. */
export type CopyValue = string | number | null

const SPECIAL = /[\\\t\n\r]/
const SPECIALS = /[\\\t\n\r]/g
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }

/** A value in COPY's text format: `\N` for null, backslash, tab, newline and carriage return escaped. */
const field = (value: CopyValue): string => {
  if (value === null) return "\\N"
  if (typeof value === "number") return String(value)
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPED[c]!) : value
}

/** The rows in COPY's text format, one line each. */
const copyText = (rows: ReadonlyArray<ReadonlyArray<CopyValue>>): string => {
  let text = ""
  for (const row of rows) {
    let line = ""
    for (let i = 0; i < row.length; i++) line += (i === 0 ? "" : "\t") + field(row[i]!)
    text += line + "\n"
  }
  return text
}

/** Copies rows into `table`'s `columns` with `COPY … FROM STDIN` (text format) on `client`, in its transaction. */
export const copyRows = (
  client: PoolClient,
  table: string,
  columns: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<CopyValue>>
): Effect.Effect<void, SqlError> =>
  rows.length === 0 ? Effect.void : Effect.tryPromise({
    try: () => {
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`))
      stream.end(copyText(rows))
      return finished(stream)
    },
    catch: (cause) => new SqlError({ cause, message: `Failed to copy rows into ${table}` })
  })
