import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Context, Effect, Layer, Scope, Stream } from "effect"
import { letIoIn } from "./letIoIn.js"

/** Options of the SQLite client pair. */
export interface SqliteReadWriteOptions {
  /** Database file, or `:memory:` (one connection: a second would open another database). */
  readonly filename: string
  /** Maps field names to column names in queries. */
  readonly transformQueryNames?: (name: string) => string
  /** Maps column names to field names in results. */
  readonly transformResultNames?: (name: string) => string
}

/** Settings of the reading connection (the writing one is tuned by its store). */
const READER_PRAGMAS = [`PRAGMA cache_size = ${-32 * 1024}`, "PRAGMA temp_store = MEMORY", "PRAGMA busy_timeout = 5000"]

/** How long (ms) statements may run back to back on the event loop's thread before waiting I/O is let in. */
const SLICE_MS = 10

/** Whether a statement only reads, so the reading connection may run it: a plain SELECT (a WITH may write). */
export const onlyReads = (sql: string): boolean => /^\s*select\b/i.test(sql)

/**
 * Wraps connections so that a statement lets waiting I/O in when the event loop has not turned for SLICE_MS: the
 * driver is synchronous, so a transaction of many statements (an import batch) otherwise holds every request until it
 * ends. Whether the loop turned is seen by a `setImmediate` set at the start of each slice; requests that come and go
 * (the loop turning between them) never wait.
 */
const timeSliced = () => {
  let since = -Infinity
  let turned = true
  const startSlice = () => {
    since = performance.now()
    turned = false
    setImmediate(() => {
      turned = true
    })
  }
  const after = <A, E>(statement: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.tap(statement, () => {
      if (performance.now() - since < SLICE_MS) return Effect.void
      if (turned) return Effect.sync(startSlice)
      return Effect.zipRight(letIoIn, Effect.sync(startSlice))
    })
  return (connection: Connection): Connection => ({
    execute: (sql, params, transformRows) => after(connection.execute(sql, params, transformRows)),
    executeRaw: (sql, params) => after(connection.executeRaw(sql, params)),
    executeValues: (sql, params) => after(connection.executeValues(sql, params)),
    // the driver prepares an unprepared statement anew each time: a transaction's BEGIN and COMMIT take its prepared ones
    executeUnprepared: (sql, params, transformRows) =>
      after(TRANSACTION_CONTROL.has(sql) ? connection.execute(sql, params, transformRows) : connection.executeUnprepared(sql, params, transformRows)),
    executeStream: (sql, params, transformRows) => connection.executeStream(sql, params, transformRows)
  })
}

/** The statements @effect/sql opens and ends a transaction with, the same text every time. */
const TRANSACTION_CONTROL = new Set(["BEGIN", "COMMIT", "ROLLBACK"])

/**
 * A lock that passes itself to the longest-waiting fiber when released. Effect's Semaphore lets whoever asks next take
 * it, so a loop of transactions (an import whose next batch is ready when the last commits) kept a waiting write out
 * for the whole import. A waiter interrupted after the lock was passed to it passes it on.
 */
const fifoLock = (): Effect.Effect<void, never, Scope.Scope> => {
  let held = false
  const queue: Array<{ handed: boolean; readonly wake: () => void }> = []
  const release = () => {
    const next = queue.shift()
    if (next === undefined) {
      held = false
      return
    }
    next.handed = true
    next.wake()
  }
  const acquire = Effect.async<void>((resume) => {
    if (!held) {
      held = true
      resume(Effect.void)
      return
    }
    const entry = { handed: false, wake: () => resume(Effect.void) }
    queue.push(entry)
    return Effect.sync(() => {
      if (entry.handed) release()
      else queue.splice(queue.indexOf(entry), 1)
    })
  })
  // the scope's own finalizer: Effect.addFinalizer would also restore the fiber's refs around it, two diffs of them
  return Effect.uninterruptibleMask((restore) =>
    Effect.zipRight(restore(acquire), Effect.flatMap(Effect.scope, (scope) => Scope.addFinalizer(scope, Effect.sync(release)))))
}

/**
 * A SqlClient on a SQLite file with two connections. Every transaction and every write runs on the writing
 * connection, as with @effect/sql-sqlite-node alone; a SELECT outside a transaction runs on a second, read-only
 * connection, which in WAL mode reads the last committed state without waiting, so a request's read no longer queues
 * behind a transaction another fiber holds open (an import batch, a send's claim). It sees what it would have seen
 * after waiting, minus rows not yet committed. That connection is taken once, for the client's life: a scope and a
 * lock per read were 40 % of a read's cost (bench/HISTORY.md). Statements let waiting requests in once the thread has
 * been busy for 10 ms (`timeSliced`), so they are answered between a long transaction's statements, and writers take
 * the writing connection in the order they asked for it (`fifoLock`). `:memory:` keeps one connection.
 */
export const sqliteReadWriteClient = (
  options: SqliteReadWriteOptions
): Layer.Layer<SqlClient.SqlClient | SqliteClient.SqliteClient, SqlError> =>
  Layer.scopedContext(Effect.gen(function*() {
    const writer = yield* SqliteClient.make(options)
    if (options.filename === ":memory:") return Context.make(SqliteClient.SqliteClient, writer).pipe(Context.add(SqlClient.SqlClient, writer))
    const reader = yield* SqliteClient.make({ ...options, readonly: true, disableWAL: true })
    for (const pragma of READER_PRAGMAS) yield* reader.unsafe(pragma)
    // reads run whole on the thread (the driver is synchronous), so the reading connection is taken once, for good
    const reading = yield* reader.reserve
    const yielding = timeSliced()
    const writing = Effect.zipRight(fifoLock(), writer.reserve)
    const on = <A>(sql: string, run: (connection: Connection) => Effect.Effect<A, SqlError>) =>
      onlyReads(sql) ? run(reading) : Effect.scoped(Effect.flatMap(writing, run))
    const routed: Connection = yielding({
      execute: (sql, params, transformRows) => on(sql, (c) => c.execute(sql, params, transformRows)),
      executeRaw: (sql, params) => on(sql, (c) => c.executeRaw(sql, params)),
      executeValues: (sql, params) => on(sql, (c) => c.executeValues(sql, params)),
      executeUnprepared: (sql, params, transformRows) => on(sql, (c) => c.executeUnprepared(sql, params, transformRows)),
      executeStream: (sql, params, transformRows) => Stream.unwrapScoped(Effect.map(writing, (c) => c.executeStream(sql, params, transformRows)))
    })
    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(routed),
      transactionAcquirer: Effect.map(writing, yielding),
      compiler: Statement.makeCompilerSqlite(options.transformQueryNames),
      spanAttributes: [["db.system.name", "sqlite"]],
      ...(options.transformResultNames === undefined ? {} : { transformRows: Statement.defaultTransforms(options.transformResultNames).array })
    })
    const both = Object.assign(client, { [SqliteClient.TypeId]: SqliteClient.TypeId, config: writer.config, export: writer.export, backup: writer.backup, loadExtension: writer.loadExtension })
    return Context.make(SqliteClient.SqliteClient, both as SqliteClient.SqliteClient).pipe(Context.add(SqlClient.SqlClient, client))
  })).pipe(Layer.provide(Reactivity.layer))
