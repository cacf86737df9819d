import { Context, Duration, Effect, Either, Fiber, Option } from "effect"
import type { ImportRules } from "../domain/ImportDecision.js"
import { type ImportColumns, importColumns, type ImportRow, importRow, type RejectedRow } from "../domain/ImportRow.js"
import { importTransitions } from "../domain/ImportStatus.js"
import { importWindowBatches, importWindowRows } from "../domain/ImportWindow.js"
import type { SubscriberImport } from "../domain/SubscriberImport.js"
import { CsvParser, type CsvRow } from "../ports/CsvParser.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { ImportBatchRepository } from "../ports/ImportBatchRepository.js"
import { SubscriberImportRepository } from "../ports/SubscriberImportRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { now } from "./now.js"
import { MailroomMetrics } from "../metrics/MailroomMetrics.js"
import { pollForever, SLOWEST_IDLE_POLL } from "./pollForever.js"
import { makeProgressLog } from "./ProgressLog.js"

/** Tuning of the import worker: rows per transaction, lease, CSV parts read at once, idle polling. */
export class ImportOptions extends Context.Reference<ImportOptions>()("@mailroom/ImportOptions", {
  defaultValue: () => ({
    /**
     * Data rows written per transaction (and per progress update). Each batch rewrites the pages of the address index
     * it touches, and addresses come in random order, so larger batches import faster (10,000 rows: +13 % on SQLite over
     * 5,000, which was +19 % over 2,000, bench/HISTORY.md), while writes wait longer behind each one on SQLite.
     */
    batchSize: 10_000,
    /**
     * Data rows read before they are written (rounded down to whole batches, at least one); 0, the default, writes them
     * in the CSV's order. A window is sorted by address and written in batches, so each batch touches a narrow range of
     * the address index: on SQLite an import of 1,000,000 random addresses ran 24-48 % faster with windows of
     * 40,000-50,000 rows, for ~20 MB more at its peak (the server's default there is 40,000); on Postgres 5-10 %
     * slower (bench/HISTORY.md). Parsing a window must take less than the lease (40,000 rows take well under a second).
     */
    windowRows: 0,
    /**
     * How long a claimed import stays reserved; every batch renews it, so only a dead worker (or a window that takes
     * longer than this to parse) lets it run out; another worker then repeats the work, never a row (the progress guard).
     */
    lease: Duration.seconds(30),
    /** Stored CSV parts read per query. */
    partsPerRead: 1,
    /** Pause between polls when no import waits. */
    pollInterval: Duration.millis(500),
    /** How often a running import logs its progress (rows processed, errors, rate), besides its start and end lines. */
    progressLogEvery: Duration.seconds(10)
  })
}) {}

/** Characters of CSV text parsed at a time. */
const PARSE_SLICE = 262_144

/** The import was deleted, or another worker holds it now: stop without touching it. */
class Lost {
  readonly _tag = "Lost"
}

/**
 * Runs started imports. A worker leases one pending or importing import, streams its stored CSV through the parser,
 * gathers its data rows in windows of `windowRows`, and writes each window sorted by address in batches, each in one
 * transaction with the import's progress (`processedRows`). Windows start at whole multiples of `windowRows` and a
 * window's order depends only on its rows, so a crash or restart re-reads the window it stopped in and resumes exactly
 * where the last batch ended: no row is lost or written twice. Then it unsubscribes the others when asked, marks the
 * import completed and drops its CSV.
 */
export class ImportWorker extends Effect.Service<ImportWorker>()("@mailroom/ImportWorker", {
  effect: Effect.gen(function*() {
    const imports = yield* SubscriberImportRepository
    const lists = yield* EmailListRepository
    const batches = yield* ImportBatchRepository
    const parser = yield* CsvParser
    const { withTransaction } = yield* Transactor
    const options = yield* ImportOptions
    const leaseFrom = (at: Date) => new Date(at.getTime() + Duration.toMillis(options.lease))
    const log = makeProgressLog({ key: "import", done: "imported", failed: "errors" }, Duration.toMillis(options.progressLogEvery))

    const fail = (subscriberImport: SubscriberImport, reason: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const { from, to } = importTransitions.fail
        // the CSV is dropped as on completion: a failed import cannot be started again, so its text is never read
        yield* withTransaction(Effect.gen(function*() {
          const failed = yield* imports.transition(subscriberImport.id, from, to, { failureReason: reason, finishedAt: at, lockedUntil: null, updatedAt: at })
          if (Option.isSome(failed)) yield* imports.dropCsv(subscriberImport.id)
        }))
        log.forget(String(subscriberImport.id))
        yield* Effect.logWarning(`Subscriber import ${subscriberImport.id} failed: ${reason}`)
      })

    /**
     * Imports everything after `processedRows`; false when the header has no email column (the import failed). Its CSV
     * reader (and the reader's thread, if any) lives until it returns.
     */
    const importRows = (subscriberImport: SubscriberImport) =>
      Effect.gen(function*() {
        const rules: ImportRules = {
          importId: subscriberImport.id,
          subscribeUnsubscribed: subscriberImport.subscribeUnsubscribed,
          replaceTags: subscriberImport.replaceTags
        }
        const reader = yield* parser.reader
        const sorted = subscriberImport.windowRows > 0
        const windowSize = sorted ? subscriberImport.windowRows : options.batchSize
        /** Rows of the first window already written before a restart, in the order its batches are written. */
        let skip = sorted ? subscriberImport.processedRows % windowSize : 0
        /** Data rows before the first window: the parser passes over them. */
        const passed = subscriberImport.processedRows - skip
        let columns: ImportColumns | null = null
        let seen = 0
        let processed = subscriberImport.processedRows
        let rows: Array<ImportRow> = []
        let rejected: Array<RejectedRow> = []

        /** Writes one batch after `before` rows; fails with Lost when the import is no longer this worker's. */
        const write = (batchRows: ReadonlyArray<ImportRow>, batchRejected: ReadonlyArray<RejectedRow>, before: number) =>
          Effect.gen(function*() {
            const count = batchRows.length + batchRejected.length
            const at = yield* now
            const written = yield* batches.write({
              importId: subscriberImport.id,
              emailListId: subscriberImport.emailListId,
              rules,
              rows: batchRows,
              rejected: batchRejected,
              processedBefore: before,
              processedAfter: before + count,
              leaseUntil: leaseFrom(at),
              at
            })
            if (Option.isNone(written)) return yield* Effect.fail(new Lost())
            MailroomMetrics.importRows.imported.unsafeUpdate(count - written.value.rejected, [])
            MailroomMetrics.importRows.rejected.unsafeUpdate(written.value.rejected, [])
            yield* log.add(
              String(subscriberImport.id),
              count - written.value.rejected,
              written.value.rejected,
              (t) => `Subscriber import ${subscriberImport.id}: ${before + count} rows processed, ${t.failed} errors, ${t.rate} rows/s`,
              { rows: before + count }
            )
          })

        /** A window's last batch, written while the next window is parsed (the store works while this process parses). */
        let writing: Fiber.Fiber<void, Lost> | null = null
        /** Waits until the batch being written is committed. */
        const settle = Effect.suspend(() => (writing === null ? Effect.void : Fiber.join(writing)))

        /**
         * Writes the gathered window's batches one after another, each guarded by the row count it follows, so resuming
         * is exact; the last one is handed to a writer while parsing goes on, so that at most one window and the start
         * of the next are held at once.
         */
        const flush = Effect.gen(function*() {
          if (rows.length + rejected.length === 0) return
          const windowBatches = importWindowBatches(rows, rejected, sorted, skip, options.batchSize)
          skip = 0
          rows = []
          rejected = []
          yield* settle
          for (const [i, batch] of windowBatches.entries()) {
            const written = write(batch.rows, batch.rejected, processed)
            processed += batch.rows.length + batch.rejected.length
            if (i < windowBatches.length - 1) yield* written
            else writing = yield* Effect.fork(written)
            // a macrotask boundary: with a synchronous driver (SQLite) the API would otherwise wait for the whole import
            yield* Effect.sleep(Duration.zero)
          }
        })

        /** Takes one parsed row; a header problem when the first row is not a usable header. */
        const take = (row: CsvRow): string | undefined => {
          if (columns === null) {
            if (row._tag === "Malformed") return row.reason
            const header = importColumns(row.fields)
            if (Either.isLeft(header)) return header.left
            columns = header.right
            return undefined
          }
          if (++seen <= passed) return undefined
          if (row._tag === "Malformed") {
            rejected.push({ line: row.line, email: null, reason: `The row cannot be read: ${row.reason}` })
          } else {
            const parsed = importRow(columns, row.line, row.fields)
            if (Either.isRight(parsed)) rows.push(parsed.right)
            else rejected.push(parsed.left)
          }
          return undefined
        }

        /** Takes rows from `from` until a window is full (its end), the rows run out, or the header has a problem. */
        const takeSome = (parsed: ReadonlyArray<CsvRow>, from: number): { readonly next: number; readonly problem?: string } => {
          for (let i = from; i < parsed.length; i++) {
            const problem = take(parsed[i]!)
            if (problem !== undefined) return { next: i, problem }
            if (rows.length + rejected.length >= windowSize) return { next: i + 1 }
          }
          return { next: parsed.length }
        }

        /** Takes every parsed row, writing each window as it fills; a header problem, if any. */
        const takeAll = (parsed: ReadonlyArray<CsvRow>) =>
          Effect.gen(function*() {
            for (let next = 0; next < parsed.length;) {
              const taken = takeSome(parsed, next)
              if (taken.problem !== undefined) return taken.problem
              next = taken.next
              if (rows.length + rejected.length >= windowSize) yield* flush
            }
            return undefined
          })

        for (let after = 0;;) {
          const parts = yield* imports.csvParts(subscriberImport.id, after, options.partsPerRead)
          if (parts.length === 0) break
          for (const part of parts) {
            // parsed in slices, so that only a few thousand rows are held at once whatever the size of a part
            for (let at = 0; at < part.text.length; at += PARSE_SLICE) {
              const problem = yield* takeAll(yield* reader.push(part.text.slice(at, at + PARSE_SLICE)))
              if (problem !== undefined) return yield* Effect.as(Effect.zipRight(settle, fail(subscriberImport, problem)), false)
            }
          }
          after = parts[parts.length - 1]!.seq
        }
        const problem = (yield* takeAll(yield* reader.end)) ?? (columns === null ? "The CSV is empty: it has no header row." : undefined)
        if (problem !== undefined) return yield* Effect.as(Effect.zipRight(settle, fail(subscriberImport, problem)), false)
        yield* flush
        yield* settle
        return true
      }).pipe(Effect.scoped)

    /** Runs one claimed import to its end (or until it is lost to deletion or another worker). */
    const runImport = (claimed: SubscriberImport) =>
      Effect.gen(function*() {
        let subscriberImport = claimed
        if (Option.isNone(yield* lists.findById(subscriberImport.emailListId))) {
          return yield* fail(subscriberImport, "The email list of this import no longer exists.")
        }
        if (subscriberImport.status === "pending") {
          const at = yield* now
          const { from, to } = importTransitions.begin
          const begun = yield* imports.transition(subscriberImport.id, from, to, {
            importedSubscribersCount: 0,
            errorCount: 0,
            processedRows: 0,
            windowRows: importWindowRows(options.windowRows, options.batchSize),
            startedAt: at,
            lockedUntil: leaseFrom(at),
            updatedAt: at
          })
          if (Option.isNone(begun)) return
          subscriberImport = begun.value
          yield* log.start(String(subscriberImport.id), `Subscriber import ${subscriberImport.id} started`, { rows: 0 })
        } else {
          const { id, processedRows } = subscriberImport
          yield* log.start(String(id), `Subscriber import ${id} resumed after row ${processedRows}`, { rows: processedRows })
        }
        if (!(yield* importRows(subscriberImport))) return
        const at = yield* now
        if (subscriberImport.unsubscribeOthers) {
          yield* batches.unsubscribeOthers(subscriberImport.id, subscriberImport.emailListId, at)
        }
        const { from, to } = importTransitions.complete
        const done = yield* withTransaction(Effect.gen(function*() {
          const done = yield* imports.transition(subscriberImport.id, from, to, { finishedAt: at, lockedUntil: null, updatedAt: at })
          if (Option.isSome(done)) yield* imports.dropCsv(subscriberImport.id)
          return done
        }))
        if (Option.isNone(done)) return log.forget(String(subscriberImport.id))
        const { errorCount: errors, processedRows: rows } = done.value
        yield* log.end(
          String(subscriberImport.id),
          (t) => `Subscriber import ${subscriberImport.id} completed: ${rows} rows, ${errors} errors (${t.rate} rows/s over ${t.seconds} s)`,
          { rows, errors }
        )
      }).pipe(Effect.catchIf((error): error is Lost => error instanceof Lost, () => Effect.sync(() => log.forget(String(claimed.id)))))

    /** Claims and runs one import; 1 when there was one, 0 when none waits. */
    const step = Effect.fn("ImportWorker.step")(function*() {
      const at = yield* now
      const claimed = yield* imports.claim(at, leaseFrom(at))
      if (Option.isNone(claimed)) return 0
      yield* runImport(claimed.value)
      return 1
    })

    /** Runs imports until none waits (tests, one-shot tools). */
    const drain = Effect.fn("ImportWorker.drain")(function*() {
      let total = 0
      for (let ran = yield* step(); ran > 0; ran = yield* step()) total += ran
      return total
    })

    /** Polls forever; the server forks it, `mailroom worker` runs it. */
    const run = pollForever("Subscriber imports", step(), options.pollInterval, SLOWEST_IDLE_POLL, "imports")

    return { step, drain, run } as const
  })
}) {}
