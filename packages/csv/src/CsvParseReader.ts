import { CsvParser } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { csvRecordReader } from "./csvRecordReader.js"

/** CsvParser on csv-parse in the calling thread (csvRecordReader); the library's default and the reader of small texts. */
export const CsvParseReader: Layer.Layer<CsvParser> = Layer.succeed(
  CsvParser,
  CsvParser.of({
    reader: Effect.sync(() => {
      const reader = csvRecordReader()
      return { push: (text: string) => Effect.sync(() => reader.push(text)), end: Effect.sync(() => reader.end()) }
    })
  })
)
