import { type FSWatcher, watch } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname } from "node:path"
import { Worker } from "node:worker_threads"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Runtime } from "effect"

/** WAL pages after which the serving connection checkpoints itself while the worker runs (only if it falls far behind). */
export const FALLBACK_CHECKPOINT_PAGES = 16_384

/** How long writes must go on (with no pause over WRITE_GAP_MS) before the worker starts: a single request never starts it. */
const SUSTAINED_MS = 1_000
const WRITE_GAP_MS = 2_000

/** SQLite's own threshold, in force while no worker runs. */
const DEFAULT_CHECKPOINT_PAGES = 1_000

/**
 * The worker: a second connection that copies the log into the database file (PASSIVE: it never blocks a reader or
 * the writer), every 50 ms while the log grows, slowing to every 2 s while it does not; after 30 s with nothing to do
 * it closes its connection and ends.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
const db = new Database(workerData.filename, { fileMustExist: true })
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
let pause = 50, last = "", quiet = 0
const tick = () => {
  const { log, checkpointed } = checkpoint.get()
  const seen = log + ":" + checkpointed
  quiet = seen === last ? quiet + pause : 0
  pause = seen === last ? Math.min(2000, pause * 2) : 50
  last = seen
  if (quiet >= 30000) db.close()
  else setTimeout(tick, pause)
}
tick()
`

/**
 * Moves the write-ahead log's checkpoints of a SQLite file off the thread that serves requests while it is being
 * written: better-sqlite3 is synchronous, so a checkpoint (reading the log, writing pages, two fsyncs) run by a
 * committing transaction stalls every request and worker for its whole length; during a large import that was a third
 * of the time. Once the log file has been written for a second (an import, a campaign, a burst of requests), a
 * worker thread with its own connection starts and checkpoints instead, and the serving connection then checkpoints
 * only past FALLBACK_CHECKPOINT_PAGES; the worker ends after 30 s without writes, so an idle server holds no second
 * thread. If the worker fails, SQLite's own threshold is restored for good.
 */
export const walCheckpointer = (filename: string): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const run = Runtime.runFork(yield* Effect.runtime<never>())
    const log = `${basename(filename)}-wal`
    const driver = createRequire(import.meta.url).resolve("better-sqlite3")
    let worker: Worker | null = null
    let watcher: FSWatcher | null = null
    let stopped = false
    const checkpointAfter = (pages: number) => {
      if (!stopped) run(sql.unsafe(`PRAGMA wal_autocheckpoint = ${pages}`).pipe(Effect.ignore))
    }
    const start = () => {
      watcher?.close()
      watcher = null
      if (stopped || worker !== null) return
      let started: Worker
      try {
        started = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, filename } })
      } catch (error) {
        run(Effect.logWarning(`The SQLite checkpoint worker could not start (${String(error)}); requests run checkpoints.`))
        return
      }
      worker = started
      started.unref()
      checkpointAfter(FALLBACK_CHECKPOINT_PAGES)
      let failed = false
      started.once("error", (error) => {
        failed = true
        run(Effect.logWarning(`The SQLite checkpoint worker failed (${String(error)}); requests run checkpoints again.`))
      })
      started.once("exit", () => {
        worker = null
        checkpointAfter(DEFAULT_CHECKPOINT_PAGES)
        if (!failed) arm()
      })
    }
    /** When the writes of the current spell began (0: none yet); a spell ends after WRITE_GAP_MS without writes. */
    let spellFrom = 0
    let lastWrite = 0
    const written = () => {
      const at = Date.now()
      if (spellFrom === 0 || at - lastWrite > WRITE_GAP_MS) spellFrom = at
      lastWrite = at
      if (at - spellFrom >= SUSTAINED_MS) start()
    }
    const arm = () => {
      if (stopped) return
      spellFrom = 0
      try {
        // the folder, not the log file: the log may not exist yet
        watcher = watch(dirname(filename), { persistent: false }, (_, name) => {
          if (name === log) written()
        })
        watcher.on("error", () => watcher?.close())
      } catch {
        watcher = null
      }
    }
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        stopped = true
        watcher?.close()
        await worker?.terminate()
      })
    )
    arm()
  }))
