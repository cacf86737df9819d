import { Context, type Effect, type Scope } from "effect"

/** One row of a CSV file: its fields and the line it starts on (1-based), or a row that could not be read. */
export type CsvRow =
  | { readonly _tag: "Record"; readonly line: number; readonly fields: ReadonlyArray<string> }
  | { readonly _tag: "Malformed"; readonly line: number; readonly reason: string }

/** An incremental CSV reader: text goes in, in pieces cut anywhere; the rows completed so far come out. */
export interface CsvReader {
  readonly push: (text: string) => Effect.Effect<ReadonlyArray<CsvRow>>
  /** Ends the input; the last rows (an unterminated final line, or an unclosed quote as Malformed). */
  readonly end: Effect.Effect<ReadonlyArray<CsvRow>>
}

/**
 * Reads CSV text (RFC 4180, any line ending, a BOM allowed, blank lines skipped) for subscriber imports. A reader
 * lives in a scope, so an adapter may parse on another thread and release it when the scope closes.
 */
export class CsvParser extends Context.Tag("@mailroom/CsvParser")<CsvParser, {
  readonly reader: Effect.Effect<CsvReader, never, Scope.Scope>
}>() {}
