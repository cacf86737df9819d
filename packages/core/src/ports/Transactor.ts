import { Context, type Effect } from "effect"

/** Runs an effect atomically against the store: all of its writes happen, or none do. Nested calls join the outer one. */
export class Transactor extends Context.Tag("@mailroom/Transactor")<Transactor, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Runs one repository write that is atomic on its own (its port says so), without opening a transaction for it where
   * the store can; inside a transaction it joins it. Its commit counts as a transaction's (idle workers are told).
   */
  readonly withAtomicWrite: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
