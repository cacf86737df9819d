import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Transactor } from "@mailroom/core"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { Deferred, Effect, Fiber } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

describe("postgres transactions", () => {
  it.effect("runs a transaction again when Postgres aborts it to break a deadlock, so both writers succeed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { withTransaction } = yield* Transactor
      yield* sql`CREATE TABLE deadlock_probe (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`
      yield* sql`INSERT INTO deadlock_probe (id, n) VALUES (1, 0), (2, 0)`
      const bump = (id: number) => sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${id}`
      let runs = 0
      /** Takes `first`, waits until the other writer holds its first row, then takes `second`: opposite orders. */
      const writer = (first: number, second: number, mine: Deferred.Deferred<void>, theirs: Deferred.Deferred<void>) =>
        withTransaction(Effect.gen(function*() {
          runs++
          yield* bump(first)
          yield* Deferred.succeed(mine, undefined)
          yield* Deferred.await(theirs)
          yield* bump(second)
        }).pipe(Effect.orDie))
      const one = yield* Deferred.make<void>()
      const two = yield* Deferred.make<void>()
      const a = yield* Effect.fork(writer(1, 2, one, two))
      const b = yield* Effect.fork(writer(2, 1, two, one))
      yield* Fiber.join(a)
      yield* Fiber.join(b)
      expect(runs).toBe(3)
      const rows = yield* sql<{ readonly id: number; readonly n: number }>`SELECT id, n FROM deadlock_probe ORDER BY id`
      expect(rows.map((row) => Number(row.n))).toEqual([2, 2])
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })
})
