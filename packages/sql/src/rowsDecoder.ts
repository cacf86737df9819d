import type { ParseResult } from "effect"
import { type Effect, Schema } from "effect"

const decoders = new WeakMap<object, (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<unknown>, ParseResult.ParseError>>()

/**
 * `Schema.decodeUnknown(Schema.Array(Row))`, built once per row schema: building it in each call makes a new schema
 * class and compiles a new parser every time (~23 µs a call, bench/HISTORY.md).
 */
export const rowsDecoder = <A, I>(Row: Schema.Schema<A, I>): (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
  let decoder = decoders.get(Row)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknown(Schema.Array(Row))
    decoders.set(Row, decoder)
  }
  return decoder as (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>
}
