import { CsvParser } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** A CsvParser that reads no rows, for tests of use cases that never import. */
export const noCsv = Layer.succeed(CsvParser, CsvParser.of({ reader: Effect.succeed({ push: () => Effect.succeed([]), end: Effect.succeed([]) }) }))
