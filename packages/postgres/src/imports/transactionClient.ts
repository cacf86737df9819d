import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { PoolClient } from "pg"

/**
 * The node-postgres client of the current transaction. @effect/sql keeps the transaction's connection in the fiber's
 * context (`SqlClient.TransactionConnection`), and @effect/sql-pg's connection holds the pool client it reserved for
 * the transaction as its `pg` field (not in its type, hence the check). Outside a transaction it dies.
 */
export const transactionClient: Effect.Effect<PoolClient> = Effect.flatMap(
  Effect.serviceOption(SqlClient.TransactionConnection),
  (found) => {
    const client = Option.isSome(found) ? (found.value[0] as { readonly pg?: Partial<PoolClient> }).pg : undefined
    return client !== undefined && typeof client.query === "function" && typeof client.release === "function"
      ? Effect.succeed(client as PoolClient)
      : Effect.dieMessage("No node-postgres client in the current transaction (run inside sql.withTransaction on @effect/sql-pg)")
  }
)
