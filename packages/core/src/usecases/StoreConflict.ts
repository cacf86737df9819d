import { Data, Effect, Schedule } from "effect"

/** A concurrent write changed what a transaction relied on; the whole transaction is run again. */
export class StoreConflict extends Data.TaggedError("StoreConflict") {}

/** Runs `self` again (up to 5 times) when it fails with StoreConflict; a conflict that persists is a defect. */
export const retryOnConflict = <A, E, R>(self: Effect.Effect<A, E | StoreConflict, R>): Effect.Effect<A, E, R> =>
  self.pipe(
    Effect.retry({
      while: (error) => error instanceof StoreConflict,
      schedule: Schedule.recurs(5).pipe(Schedule.addDelay(() => "5 millis"))
    }),
    Effect.catchIf((error): error is StoreConflict => error instanceof StoreConflict, (error) => Effect.die(error))
  ) as Effect.Effect<A, E, R>
