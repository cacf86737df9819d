import { Effect, FiberRef } from "effect"
import { Transactor } from "../../ports/Transactor.js"
import { MemoryState } from "./MemoryState.js"

const inTransaction = FiberRef.unsafeMake(false)

/**
 * Transactions for the in-memory store: one at a time, tables restored from a snapshot when the effect fails. An atomic
 * write is one too: a write between a transaction's snapshot and its failure would be undone with it.
 */
export const makeMemoryTransactor = (state: MemoryState) =>
  Effect.map(Effect.makeSemaphore(1), (lock) => {
    const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
        nested ? self : lock.withPermits(1)(
          Effect.suspend(() => {
            const snapshot = state.snapshot()
            return self.pipe(
              Effect.onExit((exit) => (exit._tag === "Failure" ? Effect.sync(() => state.restore(snapshot)) : Effect.void)),
              Effect.locally(inTransaction, true)
            )
          })
        ))
    return Transactor.of({ withTransaction, withAtomicWrite: withTransaction })
  })
