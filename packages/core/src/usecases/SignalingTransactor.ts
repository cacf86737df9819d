import { Effect, FiberRef, Layer } from "effect"
import { Transactor } from "../ports/Transactor.js"
import { WorkSignal } from "./WorkSignal.js"

/** Whether the current fiber runs inside a transaction already (a nested call joins it and commits nothing itself). */
const inTransaction = FiberRef.unsafeMake(false)

/**
 * The store's Transactor, telling the WorkSignal when an outermost transaction or an atomic write outside one commits: a
 * nested call joins the outer one, so it commits nothing and says nothing; one that fails or is rolled back says
 * nothing either.
 */
export const SignalingTransactor = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const { withAtomicWrite, withTransaction } = yield* Transactor
    const signal = yield* WorkSignal
    return Transactor.of({
      withTransaction: (self) =>
        Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
          nested
            ? withTransaction(self)
            : Effect.tap(withTransaction(Effect.locally(self, inTransaction, true)), () => signal.notify)),
      withAtomicWrite: (self) =>
        Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
          nested ? withAtomicWrite(self) : Effect.tap(withAtomicWrite(self), () => signal.notify))
    })
  })
)
