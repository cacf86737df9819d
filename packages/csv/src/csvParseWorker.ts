/**
 * The parsing thread of CsvThreadReader: each message is a piece of CSV text (or null for the end), each answer the
 * rows it completed as `{ lines, items }`: an item is a record's fields, or a malformed row's reason. Plain arrays of
 * strings cross the thread boundary about twice as fast as row objects (structured clone), so rows are rebuilt there.
 */
import { parentPort } from "node:worker_threads"
import { csvRecordReader } from "./csvRecordReader.js"

const reader = csvRecordReader()
const port = parentPort!

port.on("message", (text: string | null) => {
  const rows = text === null ? reader.end() : reader.push(text)
  const lines = new Array<number>(rows.length)
  const items = new Array<ReadonlyArray<string> | string>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    lines[i] = row.line
    items[i] = row._tag === "Record" ? row.fields : row.reason
  }
  port.postMessage({ lines, items })
})
