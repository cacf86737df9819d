/**
 * The SQLite client's `SyncWriter`: statements run as one call on the writing connection, in a transaction of their
 * own that waits for another fiber's open one, or inside the fiber's own transaction; a failing statement undoes the
 * call's earlier ones; rows come back with the client's field names.
 */
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { SyncWriter } from "@mailroom/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { sqliteReadWriteClient } from "../src/SqliteReadWriteClient.js"
import { heldTransaction } from "./heldTransaction.js"
import { tempDatabaseFile } from "./tempDatabaseFile.js"

const onFile = () => sqliteReadWriteClient({ filename: tempDatabaseFile("mailroom-sync-"), transformResultNames: (name) => name.toUpperCase() })

const setUp = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE items (id INTEGER PRIMARY KEY, item_name TEXT NOT NULL UNIQUE)`)

const names = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ ITEM_NAME: string }>`SELECT item_name FROM items ORDER BY id`).pipe(
  Effect.map((rows) => rows.map((row) => row.ITEM_NAME))
)

const insert = (name: string) =>
  Effect.flatMap(SyncWriter, (writer) => writer.write((statements) => statements.get("INSERT INTO items (item_name) VALUES (?) RETURNING *", [name])))

describe("SyncWriter on SQLite", () => {
  it.live("a write outside a transaction waits for another fiber's open one, then commits on its own", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* setUp
      const open = yield* heldTransaction(sql`INSERT INTO items (item_name) VALUES ('first')`)
      const second = yield* Effect.fork(insert("second"))
      yield* Effect.sleep("50 millis")
      expect(second.unsafePoll()).toBeNull()
      yield* open.commit
      expect(yield* Fiber.join(second)).toEqual({ ID: 2, ITEM_NAME: "second" })
      expect(yield* names).toEqual(["first", "second"])
    }).pipe(Effect.provide(onFile())))

  it.live("inside a fiber's transaction it joins it, and is undone with it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* setUp
      const failed = yield* sql.withTransaction(Effect.zipRight(insert("undone"), Effect.fail("later step failed"))).pipe(Effect.exit)
      expect(Exit.isFailure(failed)).toBe(true)
      yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO items (item_name) VALUES ('before')`, insert("kept")))
      expect(yield* names).toEqual(["before", "kept"])
    }).pipe(Effect.provide(onFile())))

  it.live("a failing statement undoes the call's earlier ones and fails with a SqlError; the connection goes on", () =>
    Effect.gen(function*() {
      const writer = yield* SyncWriter
      yield* setUp
      const failed = yield* writer.write((statements) => {
        statements.run("INSERT INTO items (item_name) VALUES (?)", ["a"])
        statements.run("INSERT INTO items (item_name) VALUES (?)", ["a"])
      }).pipe(Effect.flip)
      expect(failed).toBeInstanceOf(SqlError)
      expect(String(failed.cause)).toMatch(/UNIQUE/)
      expect(yield* names).toEqual([])
      yield* insert("b")
      expect(yield* names).toEqual(["b"])
    }).pipe(Effect.provide(onFile())))

  it.live("a transaction left open on the connection by nobody holding it (a failed COMMIT) is not joined", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* setUp
      yield* sql.unsafe("BEGIN")
      const failed = yield* insert("stray").pipe(Effect.flip)
      expect(failed.message).toMatch(/transaction open/)
      yield* sql.unsafe("ROLLBACK")
      yield* insert("kept")
      expect(yield* names).toEqual(["kept"])
    }).pipe(Effect.provide(onFile())))

  it.live("`:memory:` writes on its one connection, which reads then see", () =>
    Effect.gen(function*() {
      yield* setUp
      expect(yield* insert("one")).toEqual({ id: 1, item_name: "one" })
      expect(yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT item_name FROM items`)).toEqual([{ item_name: "one" }])
    }).pipe(Effect.provide(sqliteReadWriteClient({ filename: ":memory:" }))))
})
