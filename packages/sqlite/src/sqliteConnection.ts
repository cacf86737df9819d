import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import type Sqlite from "better-sqlite3"
import { Effect, Stream } from "effect"

/** Prepared statements a connection keeps (as many as @effect/sql-sqlite-node's cache); the least recently used go first. */
const PREPARED = 200

/** The statement of a text on `db`, prepared once and kept while it is among the PREPARED most recently used. */
export const preparedStatements = (db: Sqlite.Database): (sql: string) => Sqlite.Statement => {
  const kept = new Map<string, Sqlite.Statement>()
  return (sql) => {
    let statement = kept.get(sql)
    if (statement !== undefined) {
      kept.delete(sql)
    } else {
      statement = db.prepare(sql)
      if (kept.size >= PREPARED) kept.delete(kept.keys().next().value!)
    }
    kept.set(sql, statement)
    return statement
  }
}

/** A driver error as @effect/sql reports it. */
export const statementFailed = (cause: unknown): SqlError => new SqlError({ cause, message: "Failed to execute statement" })

/**
 * The rows of a statement that returns them, or its run's result (`raw`) or no rows. The values go to better-sqlite3
 * as one array, which it binds element by element as it would separate arguments, so a multi-row insert's thousands
 * of values are not spread onto the stack first.
 */
const runStatement = (statement: Sqlite.Statement, params: ReadonlyArray<unknown>, raw: boolean): Effect.Effect<any, SqlError> => {
  try {
    if (statement.reader) return Effect.succeed(statement.all(params))
    const result = statement.run(params)
    return Effect.succeed(raw ? result : [])
  } catch (cause) {
    return Effect.fail(statementFailed(cause))
  }
}

/** The statements @effect/sql opens and ends a transaction with: the same text every time, so prepared once. */
const TRANSACTION_CONTROL = new Set(["BEGIN", "COMMIT", "ROLLBACK"])

/**
 * An @effect/sql connection on a better-sqlite3 database Mailroom opened itself: the writing one, so that its
 * `SyncWriter` can run statements on the same connection, and the reading one. Statements are prepared once per text (a `Map`: @effect/sql-sqlite-node's Effect
 * `Cache` cost ~4 µs a statement more), and a transaction's `BEGIN` and `COMMIT` too, which that client prepared anew.
 */
export const sqliteConnection = (db: Sqlite.Database, prepared: (sql: string) => Sqlite.Statement): Connection => {
  const prepare = (sql: string): Effect.Effect<Sqlite.Statement, SqlError> => {
    try {
      return Effect.succeed(prepared(sql))
    } catch (cause) {
      return Effect.fail(new SqlError({ cause, message: "Failed to prepare statement " }))
    }
  }
  const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean) =>
    Effect.flatMap(prepare(sql), (statement) => runStatement(statement, params, raw))
  return {
    execute: (sql, params, transformRows) => (transformRows ? Effect.map(run(sql, params, false), transformRows) : run(sql, params, false)),
    executeRaw: (sql, params) => run(sql, params, true),
    executeValues: (sql, params) =>
      Effect.flatMap(prepare(sql), (statement) => {
        try {
          if (!statement.reader) {
            statement.run(params)
            return Effect.succeed([])
          }
          statement.raw(true)
          try {
            return Effect.succeed(statement.all(params) as Array<Array<unknown>>)
          } finally {
            statement.raw(false)
          }
        } catch (cause) {
          return Effect.fail(statementFailed(cause))
        }
      }),
    executeUnprepared: (sql, params, transformRows) => {
      const rows = TRANSACTION_CONTROL.has(sql)
        ? run(sql, params ?? [], false)
        : Effect.suspend(() => {
          try {
            return runStatement(db.prepare(sql), params ?? [], false)
          } catch (cause) {
            return Effect.fail(statementFailed(cause))
          }
        })
      return transformRows ? Effect.map(rows, transformRows) : rows
    },
    executeStream: () => Stream.dieMessage("executeStream not implemented")
  }
}
