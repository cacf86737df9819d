import { Context, type Effect } from "effect"

/** Runs an effect atomically against the store: all of its writes happen, or none do. Nested calls join the outer one. */
export class Transactor extends Context.Tag("@mailroom/Transactor")<Transactor, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
