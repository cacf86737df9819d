import { CsvParser, type CsvRow } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** A CSV reader for plain test files: one record a line, fields split on commas, no quoting. */
export const plainCsv = Layer.succeed(CsvParser, CsvParser.of({
  reader: Effect.sync(() => {
    let pending = ""
    let line = 0
    const records = (lines: ReadonlyArray<string>): Array<CsvRow> =>
      lines.map((text) => ({ _tag: "Record" as const, line: ++line, fields: text.split(",") }))
    return {
      push: (text: string) =>
        Effect.sync(() => {
          const lines = (pending + text).split("\n")
          pending = lines.pop()!
          return records(lines)
        }),
      end: Effect.sync(() => records(pending === "" ? [] : [pending]))
    }
  })
}))
