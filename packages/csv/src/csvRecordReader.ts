import type { CsvRow } from "@mailroom/core"
import { type Options, Parser } from "csv-parse"

/** csv-parse's options for an import: a BOM is skipped, rows may have any number of fields, stray quotes are text, a bad row is skipped. */
export const CSV_PARSE_OPTIONS: Readonly<Options> = { bom: true, relax_column_count: true, relax_quotes: true, skip_records_with_error: true }

/** A synchronous incremental reader: `push` writes text and returns the rows it completed, `end` the last ones. */
export interface CsvRecordReader {
  readonly push: (text: string) => Array<CsvRow>
  readonly end: () => Array<CsvRow>
}

const countNewlines = (fields: ReadonlyArray<string>): number => {
  let count = 0
  for (const field of fields) {
    for (let at = field.indexOf("\n"); at >= 0; at = field.indexOf("\n", at + 1)) count++
  }
  return count
}

/**
 * A reader on csv-parse, driven synchronously: each `push` writes the text and drains the records it completed.
 * Line numbers are counted here (1 + newlines before the record) because csv-parse's per-record `info` halves its
 * speed (78k instead of 132k rows/s here). Quotes inside unquoted fields are kept as text (`relax_quotes`), rows may
 * have any number of fields, and a row csv-parse cannot read is reported as Malformed at its line, the rest goes on.
 * It imports csv-parse only, so the parsing thread (csvParseWorker) loads nothing else.
 */
export const csvRecordReader = (): CsvRecordReader => {
  const parser = new Parser({ ...CSV_PARSE_OPTIONS })
  const skipped: Array<{ readonly atRecord: number; readonly line: number; readonly reason: string }> = []
  parser.on("skip", (error: Error & { lines?: number }) =>
    skipped.push({ atRecord: parser.info.records, line: error.lines ?? 0, reason: error.message }))
  let records = 0
  let line = 1
  // the unreadable record starts where the previous one ended; the parser resumes after the line it gave up on
  const malformed = (rows: Array<CsvRow>, skip: { readonly line: number; readonly reason: string }) => {
    rows.push({ _tag: "Malformed", line, reason: skip.reason })
    line = Math.max(line, skip.line) + 1
  }
  const drain = (): Array<CsvRow> => {
    const rows: Array<CsvRow> = []
    for (let record = parser.read() as Array<string> | null; record !== null; record = parser.read() as Array<string> | null) {
      while (skipped.length > 0 && skipped[0]!.atRecord <= records) {
        malformed(rows, skipped.shift()!)
      }
      records++
      if (!(record.length === 1 && record[0] === "")) rows.push({ _tag: "Record", line, fields: record })
      line += 1 + countNewlines(record)
    }
    for (const skip of skipped.splice(0)) malformed(rows, skip)
    return rows
  }
  return {
    push: (text) => {
      if (text !== "") parser.write(text)
      return drain()
    },
    end: () => {
      parser.end()
      return drain()
    }
  }
}
