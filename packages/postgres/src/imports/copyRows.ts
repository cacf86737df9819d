import { SqlError } from "@effect/sql/SqlError"
import type { Rows } from "@mailroom/sql"
import { Effect } from "effect"
import { once } from "node:events"
import { finished } from "node:stream/promises"
import type { PoolClient } from "pg"
import { from as copyFrom } from "pg-copy-streams"

/** A value of a copied row. */
export type CopyValue = string | number | null

const SPECIAL = /[\\\t\n\r]/
const SPECIALS = /[\\\t\n\r]/g
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }

/** A value in COPY's text format: `\N` for null, backslash, tab, newline and carriage return escaped. */
export const copyField = (value: CopyValue): string => {
  if (value === null) return "\\N"
  if (typeof value === "number") return String(value)
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPED[c]!) : value
}

/** Characters of COPY text sent per write: small enough to stay out of V8's large-object space (no major GC each). */
const CHUNK = 32_768

/**
 * Writes the rows in COPY's text format (one line each) to `stream`, in chunks of about CHUNK characters, waiting
 * whenever the stream's buffer is full: a batch's text is then never held whole in the socket's queue, where it
 * outlived the young generation's collections.
 */
const writeCopyText = async (stream: NodeJS.WritableStream, rows: Rows<ReadonlyArray<CopyValue>>): Promise<void> => {
  let text = ""
  for (let r = 0; r < rows.length; r++) {
    const row = rows.row(r)
    for (let i = 0; i < row.length; i++) text += (i === 0 ? "" : "\t") + copyField(row[i]!)
    text += "\n"
    if (text.length >= CHUNK) {
      if (!stream.write(text)) await once(stream, "drain")
      text = ""
    }
  }
  stream.end(text)
}

/**
 * Copies rows into `table`'s `columns` with `COPY … FROM STDIN` (text format) on `client`, in its transaction; each row
 * is read once, as its line is written.
 */
export const copyRows = (
  client: PoolClient,
  table: string,
  columns: ReadonlyArray<string>,
  rows: Rows<ReadonlyArray<CopyValue>>
): Effect.Effect<void, SqlError> =>
  rows.length === 0 ? Effect.void : Effect.tryPromise({
    try: async () => {
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`))
      try {
        await writeCopyText(stream, rows)
      } catch (cause) {
        // a row that cannot be built ends the COPY with its error, so the connection is not left inside it
        stream.destroy(cause as Error)
        throw cause
      }
      return finished(stream)
    },
    catch: (cause) => new SqlError({ cause, message: `Failed to copy rows into ${table}` })
  })
