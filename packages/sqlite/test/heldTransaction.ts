import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Fiber } from "effect"

/**
 * Forks a transaction that runs `statement` and stays open; waits until it is. `commit` lets it end and waits for its
 * fiber.
 */
export const heldTransaction = <A, E, R>(statement: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inside = yield* Deferred.make<void, E>()
    const finish = yield* Deferred.make<void>()
    // a statement that fails fails the wait for the transaction, instead of leaving it waiting
    const fiber = yield* sql.withTransaction(
      Effect.zipRight(
        Effect.tapError(statement, (error) => Deferred.fail(inside, error)),
        Effect.zipRight(Deferred.succeed(inside, undefined), Deferred.await(finish))
      )
    ).pipe(Effect.fork)
    yield* Deferred.await(inside)
    return { commit: Effect.zipRight(Deferred.succeed(finish, undefined), Fiber.join(fiber)) }
  })
