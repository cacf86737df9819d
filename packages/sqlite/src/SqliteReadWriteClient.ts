import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { type SyncStatements, SyncWriter } from "@mailroom/sql"
import Sqlite from "better-sqlite3"
import { Context, Effect, Layer, Option, Scope, Stream } from "effect"
import { letIoIn } from "./letIoIn.js"
import { preparedStatements, sqliteConnection, statementFailed } from "./sqliteConnection.js"

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
const READER_PRAGMAS = [`cache_size = ${-32 * 1024}`, "temp_store = MEMORY", "busy_timeout = 5000"]

/** How long (ms) statements may run back to back on the event loop's thread before waiting I/O is let in. */
const SLICE_MS = 10

/** Whether a statement only reads, so the reading connection may run it: a plain SELECT (a WITH may write). */
export const onlyReads = (sql: string): boolean => /^\s*select\b/i.test(sql)

/**
 * Lets waiting I/O in after a statement when the event loop has not turned for SLICE_MS: the driver is synchronous,
 * so a transaction of many statements (an import batch) otherwise holds every request until it ends. Whether the loop
 * turned is seen by a `setImmediate` set at the start of each slice; requests that come and go (the loop turning
 * between them) never wait. `after` is for any effect that ran statements; `wrap` applies it to a connection's.
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
  const wrap = (connection: Connection): Connection => ({
    execute: (sql, params, transformRows) => after(connection.execute(sql, params, transformRows)),
    executeRaw: (sql, params) => after(connection.executeRaw(sql, params)),
    executeValues: (sql, params) => after(connection.executeValues(sql, params)),
    executeUnprepared: (sql, params, transformRows) => after(connection.executeUnprepared(sql, params, transformRows)),
    executeStream: (sql, params, transformRows) => connection.executeStream(sql, params, transformRows)
  })
  return { after, wrap }
}

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

/** Opens a connection, closed with the scope: the writing one (WAL mode) or a read-only one with READER_PRAGMAS. */
const openConnection = (filename: string, role: "writer" | "reader") =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const db = new Sqlite(filename, { readonly: role === "reader" })
        for (const pragma of role === "writer" ? ["journal_mode = WAL"] : READER_PRAGMAS) db.pragma(pragma)
        return db
      },
      catch: (cause) => new SqlError({ cause, message: "Failed to open the database" })
    }),
    (db) => Effect.sync(() => db.close())
  )

/**
 * A SqlClient on a SQLite file with two connections, and the `SyncWriter` of its writing connection. Every transaction
 * and every write runs on the writing connection (opened here, `sqliteConnection`); a SELECT outside a transaction runs
 * on a second, read-only connection, which in WAL mode reads the last committed state without waiting, so a request's
 * read no longer queues behind a transaction another fiber holds open (an import batch, a send's claim). It sees what
 * it would have seen after waiting, minus rows not yet committed. That connection is taken once, for the client's life:
 * a scope and a lock per read were 40 % of a read's cost (bench/HISTORY.md). Statements let waiting requests in once
 * the thread has been busy for 10 ms (`timeSliced`), so they are answered between a long transaction's statements,
 * and writers take the writing connection in the order they asked for it (`fifoLock`). `:memory:` keeps one
 * connection, which reads take in turn with writers.
 */
export const sqliteReadWriteClient = (
  options: SqliteReadWriteOptions
): Layer.Layer<SqlClient.SqlClient | SyncWriter, SqlError> =>
  Layer.scopedContext(Effect.gen(function*() {
    const db = yield* openConnection(options.filename, "writer")
    const prepared = preparedStatements(db)
    const writer = sqliteConnection(db, prepared)
    const lock = fifoLock()
    const writing = Effect.as(lock, writer)
    const sliced = timeSliced()
    let reading: Connection | undefined
    if (options.filename !== ":memory:") {
      // reads run whole on the thread (the driver is synchronous): one connection, never locked, serves every read
      const readDb = yield* openConnection(options.filename, "reader")
      reading = sqliteConnection(readDb, preparedStatements(readDb))
    }
    const on = <A>(sql: string, run: (connection: Connection) => Effect.Effect<A, SqlError>) =>
      reading !== undefined && onlyReads(sql) ? run(reading) : Effect.scoped(Effect.flatMap(writing, run))
    const routed: Connection = sliced.wrap({
      execute: (sql, params, transformRows) => on(sql, (c) => c.execute(sql, params, transformRows)),
      executeRaw: (sql, params) => on(sql, (c) => c.executeRaw(sql, params)),
      executeValues: (sql, params) => on(sql, (c) => c.executeValues(sql, params)),
      executeUnprepared: (sql, params, transformRows) => on(sql, (c) => c.executeUnprepared(sql, params, transformRows)),
      executeStream: (sql, params, transformRows) => Stream.unwrapScoped(Effect.map(writing, (c) => c.executeStream(sql, params, transformRows)))
    })
    // result columns renamed as the client renames them, for its statements and the SyncWriter's
    const transforms = options.transformResultNames === undefined ? undefined : Statement.defaultTransforms(options.transformResultNames)
    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(routed),
      transactionAcquirer: Effect.map(writing, sliced.wrap),
      compiler: Statement.makeCompilerSqlite(options.transformQueryNames),
      spanAttributes: [["db.system.name", "sqlite"]],
      ...(transforms === undefined ? {} : { transformRows: transforms.array })
    })
    const named = (row: Record<string, unknown>) => (transforms === undefined ? row : transforms.object(row))
    const statements: SyncStatements = {
      get: (sql, params) => {
        const row = prepared(sql).get(params) as Record<string, unknown> | undefined
        return row === undefined ? undefined : named(row)
      },
      all: (sql, params) => (prepared(sql).all(params) as Array<Record<string, unknown>>).map(named),
      run: (sql, params) => {
        prepared(sql).run(params)
      }
    }
    // better-sqlite3's transaction: BEGIN and COMMIT around `f`, or a savepoint inside an open transaction
    const atomically = db.transaction(<A>(f: (statements: SyncStatements) => A): A => f(statements))
    const attempt = <A>(f: (statements: SyncStatements) => A) =>
      Effect.try({ try: () => atomically(f) as A, catch: statementFailed })
    // with the lock held nobody else's transaction may be open; one left by a failed COMMIT is not joined
    const alone = <A>(f: (statements: SyncStatements) => A) =>
      Effect.suspend(() =>
        db.inTransaction
          ? Effect.fail(new SqlError({ message: "The writing connection has a transaction open that no writer holds" }))
          : attempt(f)
      )
    const syncWriter = SyncWriter.of({
      // inside the fiber's transaction the fiber holds the connection already; outside, it waits for its turn
      write: (f) =>
        sliced.after(Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) =>
          Option.isSome(outer) ? attempt(f) : Effect.scoped(Effect.zipRight(lock, alone(f)))))
    })
    return Context.make(SqlClient.SqlClient, client).pipe(Context.add(SyncWriter, syncWriter))
  })).pipe(Layer.provide(Reactivity.layer))
