import { SqlClient } from "@effect/sql"
import { RateBudget } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** RateBudget over SqlClient: one row per key holding the current second and the tokens used in it. */
export const SqlRateBudget = Layer.effect(
  RateBudget,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const lock = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE"), orElse: () => sql.literal("") })
    return RateBudget.of({
      take: (key, want, limit, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const second = Math.floor(now.getTime() / 1000)
          yield* sql`INSERT INTO rate_budgets ${sql.insert({ key, second, used: 0 })} ON CONFLICT DO NOTHING`
          const [row] = yield* sql<{ readonly second: number; readonly used: number }>`
            SELECT second, used FROM rate_budgets WHERE key = ${key} ${lock}`
          const used = Number(row?.second) === second ? Number(row?.used ?? 0) : 0
          const granted = Math.max(0, Math.min(want, limit - used))
          yield* sql`UPDATE rate_budgets SET second = ${second}, used = ${used + granted} WHERE key = ${key}`
          return granted
        })).pipe(Effect.orDie)
    })
  })
)
