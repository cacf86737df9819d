/**
 * Checkpoints of a SQLite file while it is being written: after a second of writes a worker thread copies the log into
 * the database file (the serving connection no longer does it at SQLite's 1,000 pages); a single write starts nothing.
 */
import { mkdtempSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { sqliteClient } from "../src/SqliteStorage.js"
import { FALLBACK_CHECKPOINT_PAGES, walCheckpointer } from "../src/walCheckpointer.js"

/** A fresh database file with a table, served by a client with the checkpoint worker. */
const database = () => {
  const filename = join(mkdtempSync(join(tmpdir(), "mailroom-wal-")), "db.sqlite")
  const layer = walCheckpointer(filename).pipe(Layer.provideMerge(sqliteClient({ filename })))
  return { filename, layer }
}

const threshold = Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe("PRAGMA wal_autocheckpoint")).pipe(
  Effect.map((rows) => Number(Object.values(rows[0]!)[0]))
)

/** Inserts a 16 KB row in its own transaction. */
const insertRow = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(sql`INSERT INTO blobs (body) VALUES (${"x".repeat(16_384)})`))

const createTable = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT)`)

describe("walCheckpointer", () => {
  it.live("a single write leaves the checkpoints to SQLite's own threshold", () => {
    const { layer } = database()
    return Effect.gen(function*() {
      yield* createTable
      yield* insertRow
      yield* Effect.sleep(Duration.millis(200))
      expect(yield* threshold).toBe(1_000)
    }).pipe(Effect.provide(layer))
  })

  it.live("after a second of writes a worker copies the log into the database file", () => {
    const { filename, layer } = database()
    return Effect.gen(function*() {
      yield* createTable
      const before = statSync(filename).size
      const until = Date.now() + 1_600
      while (Date.now() < until) {
        yield* insertRow
        yield* Effect.sleep(Duration.millis(10))
      }
      expect(yield* threshold).toBe(FALLBACK_CHECKPOINT_PAGES)
      // fewer pages than either threshold were logged, so only the worker can have copied them
      const copied = yield* Effect.gen(function*() {
        for (let i = 0; i < 60; i++) {
          if (statSync(filename).size > before + 1_000_000) return true
          yield* Effect.sleep(Duration.millis(50))
        }
        return false
      })
      expect(copied).toBe(true)
    }).pipe(Effect.provide(layer))
  }, 15_000)
})
