/**
 * The SQLite client pair: a SELECT outside a transaction is answered from the last committed state while another
 * fiber holds a write transaction open, concurrent reads each get their own rows, writes and transactions keep one
 * writing connection, connection settings go to the writer, and `:memory:` works on its single connection.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { onlyReads, sqliteReadWriteClient } from "../src/SqliteReadWriteClient.js"
import { heldTransaction } from "./heldTransaction.js"
import { tempDatabaseFile } from "./tempDatabaseFile.js"

const onFile = () => sqliteReadWriteClient({ filename: tempDatabaseFile("mailroom-rw-") })

const createItems = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`)

/** A statement that keeps the thread busy for a few ms. */
const busy = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000) SELECT count(*) AS n FROM c`)

const count = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*) AS n FROM items`).pipe(Effect.map((rows) => Number(rows[0]!.n)))

describe("sqliteReadWriteClient", () => {
  it.live("a read outside a transaction does not wait for another fiber's open write transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      yield* sql`INSERT INTO items (name) VALUES ('committed')`
      const writer = yield* heldTransaction(sql`INSERT INTO items (name) VALUES ('pending')`)
      const during = yield* count.pipe(Effect.timeout("2 seconds"))
      expect(during).toBe(1)
      yield* writer.commit
      expect(yield* count).toBe(2)
    }).pipe(Effect.provide(onFile())))

  it.live("a read is answered while another fiber runs a long transaction of many statements", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      let ended = 0
      const long = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (name) VALUES ('pending')`
        for (let i = 0; i < 150; i++) yield* busy
      })).pipe(Effect.tap(() => Effect.sync(() => (ended = performance.now()))), Effect.fork)
      yield* Effect.sleep("20 millis")
      const during = yield* count
      const answered = performance.now()
      yield* Fiber.join(long)
      expect(during).toBe(0)
      expect(answered).toBeLessThan(ended)
    }).pipe(Effect.provide(onFile())))

  it.live("a write outside a transaction waits for the open one, and the next read sees it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      const inside = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const order: Array<string> = []
      const writer = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (name) VALUES ('first')`
        yield* Deferred.succeed(inside, undefined)
        yield* Deferred.await(finish)
        order.push("committed")
      })).pipe(Effect.fork)
      yield* Deferred.await(inside)
      const second = yield* sql`INSERT INTO items (name) VALUES ('second')`.pipe(Effect.tap(() => Effect.sync(() => order.push("second"))), Effect.fork)
      yield* Effect.sleep("50 millis")
      expect(order).toEqual([])
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(writer)
      yield* Fiber.join(second)
      expect(order).toEqual(["committed", "second"])
      const names = yield* sql<{ name: string }>`SELECT name FROM items ORDER BY id`
      expect(names.map((row) => row.name)).toEqual(["first", "second"])
    }).pipe(Effect.provide(onFile())))

  it.live("a write outside a transaction is not kept out by a loop of transactions; it goes in the order it asked", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      let written = false
      const started = performance.now()
      // back-to-back transactions, each long enough to let the thread's waiting work in, for up to 3 s
      const loop = yield* Effect.gen(function*() {
        let rounds = 0
        while (!written && performance.now() - started < 3_000) {
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO items (name) VALUES ('batch')`
            for (let i = 0; i < 20; i++) yield* busy
          }))
          rounds++
        }
        return rounds
      }).pipe(Effect.fork)
      yield* Effect.sleep("30 millis")
      yield* sql`INSERT INTO items (name) VALUES ('write')`
      written = true
      const waited = performance.now() - started
      const rounds = yield* Fiber.join(loop)
      expect(waited).toBeLessThan(2_000)
      expect(rounds).toBeLessThanOrEqual(3)
    }).pipe(Effect.provide(onFile())), 15_000)

  it.live("a statement inside a transaction reads the transaction's own rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      const seen = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items (name) VALUES ('mine')`
        return yield* count
      }))
      expect(seen).toBe(1)
    }).pipe(Effect.provide(onFile())))

  it.live("many fibers reading at once on the one reading connection each get their own rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      yield* sql`INSERT INTO items (name) SELECT 'item ' || value FROM json_each(${JSON.stringify(Array.from({ length: 200 }, (_, i) => i + 1))})`
      const byId = (id: number) =>
        sql<{ name: string }>`SELECT name FROM items WHERE id = ${id}`.pipe(Effect.map((rows) => rows.map((row) => row.name)))
      const ids = Array.from({ length: 200 }, (_, i) => i + 1)
      const names = yield* Effect.forEach(ids, (id) => Effect.zipRight(Effect.yieldNow(), byId(id)), { concurrency: "unbounded" })
      expect(names).toEqual(ids.map((id) => [`item ${id}`]))
    }).pipe(Effect.provide(onFile())))

  it.live("connection settings go to the writing connection", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe("PRAGMA wal_autocheckpoint = 1234")
      // a transaction always runs on the writing connection
      const [row] = yield* sql.withTransaction(sql.unsafe<Record<string, unknown>>("PRAGMA wal_autocheckpoint"))
      expect(Number(Object.values(row!)[0])).toBe(1234)
    }).pipe(Effect.provide(onFile())))

  it.live("`:memory:` keeps one connection, so reads see the tables it created", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      yield* sql`INSERT INTO items (name) VALUES ('one')`
      expect(yield* count).toBe(1)
    }).pipe(Effect.provide(sqliteReadWriteClient({ filename: ":memory:" }))))

  it.live("`:memory:`: a read outside a transaction waits for another fiber's open one, and does not see its rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createItems
      const writer = yield* heldTransaction(sql`INSERT INTO items (name) VALUES ('pending')`)
      const read = yield* Effect.fork(count)
      yield* Effect.sleep("50 millis")
      expect(read.unsafePoll()).toBeNull()
      yield* writer.commit
      expect(yield* Fiber.join(read)).toBe(1)
    }).pipe(Effect.provide(sqliteReadWriteClient({ filename: ":memory:" }))))

  it("only a plain SELECT counts as a read", () => {
    expect(onlyReads("SELECT 1")).toBe(true)
    expect(onlyReads("\n  select id FROM x")).toBe(true)
    expect(onlyReads("WITH x AS (SELECT 1) DELETE FROM y")).toBe(false)
    expect(onlyReads("INSERT INTO x SELECT 1")).toBe(false)
    expect(onlyReads("PRAGMA cache_size")).toBe(false)
    expect(onlyReads("selection")).toBe(false)
  })
})
