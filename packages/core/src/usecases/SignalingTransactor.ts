import { Effect, Layer } from "effect"
import { Transactor } from "../ports/Transactor.js"
import { WorkSignal } from "./WorkSignal.js"

/** The store's Transactor, telling the WorkSignal after each transaction that ends successfully. */
export const SignalingTransactor = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const { withTransaction } = yield* Transactor
    const signal = yield* WorkSignal
    return Transactor.of({ withTransaction: (self) => Effect.tap(withTransaction(self), () => signal.notify) })
  })
)
