import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import { CsvParser, type CsvRow } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { csvRecordReader } from "./csvRecordReader.js"

/** What the parsing thread answers for one piece of text (csvParseWorker). */
interface Parsed {
  readonly lines: ReadonlyArray<number>
  readonly items: ReadonlyArray<ReadonlyArray<string> | string>
}

/**
 * The parsing thread's module, resolved through the package's exports (from the sources, the build or a bundle alike);
 * null where it cannot be found (an application bundle that left it out): parsing then stays in the calling thread.
 */
const workerPath = (() => {
  let path: string | null | undefined
  return (): string | null => {
    if (path === undefined) {
      try {
        path = createRequire(import.meta.url).resolve("@mailroom/csv/parse-worker")
      } catch {
        path = null
      }
    }
    return path
  }
})()

const rowsOf = ({ items, lines }: Parsed): Array<CsvRow> => {
  const rows = new Array<CsvRow>(items.length)
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    rows[i] = typeof item === "string" ? { _tag: "Malformed", line: lines[i]!, reason: item } : { _tag: "Record", line: lines[i]!, fields: item }
  }
  return rows
}

/** One parsing thread: pieces are answered in the order sent; a thread that fails or exits fails what waits. */
const parsingThread = (path: string) => {
  const worker = new Worker(path)
  const waiting: Array<(result: Effect.Effect<Array<CsvRow>>) => void> = []
  let failure: Error | null = null
  const failAll = (error: Error) => {
    failure ??= error
    for (const resume of waiting.splice(0)) resume(Effect.die(failure))
  }
  worker.on("message", (parsed: Parsed) => waiting.shift()?.(Effect.succeed(rowsOf(parsed))))
  worker.on("error", failAll)
  worker.on("exit", (code) => failAll(new Error(`The CSV parsing thread exited (code ${code}).`)))
  const send = (text: string | null) =>
    Effect.async<Array<CsvRow>>((resume) => {
      if (failure !== null) return resume(Effect.die(failure))
      waiting.push(resume)
      worker.postMessage(text)
    })
  return { send, stop: Effect.promise(() => worker.terminate()) }
}

/**
 * CsvParser on csv-parse in a thread of its own, so that the thread writing an import's batches does not also parse
 * them (bench/HISTORY.md: ~0.4 s of a 4.4 s import of 200,000 rows, against ~0.1 s to receive the rows). A reader
 * whose first piece is shorter than `threadFrom` characters parses in the calling thread instead: a small CSV is
 * read before a thread would have started. The thread stops when the reader's scope closes.
 */
export const CsvThreadReader = (options: { readonly threadFrom?: number } = {}): Layer.Layer<CsvParser> => {
  const threadFrom = options.threadFrom ?? 65_536
  return Layer.succeed(
    CsvParser,
    CsvParser.of({
      reader: Effect.gen(function*() {
        let inline: ReturnType<typeof csvRecordReader> | null = null
        let thread: ReturnType<typeof parsingThread> | null = null
        yield* Effect.addFinalizer(() => Effect.suspend(() => (thread === null ? Effect.void : thread.stop)))
        const started = (text: string) => {
          if (inline === null && thread === null) {
            const path = text.length >= threadFrom ? workerPath() : null
            if (path !== null) thread = parsingThread(path)
            else inline = csvRecordReader()
          }
          return thread
        }
        return {
          push: (text: string) =>
            Effect.suspend(() => {
              const parsing = started(text)
              return parsing === null ? Effect.sync(() => inline!.push(text)) : parsing.send(text)
            }),
          end: Effect.suspend(() => {
            const parsing = started("")
            return parsing === null ? Effect.sync(() => inline!.end()) : parsing.send(null)
          })
        }
      })
    })
  )
}
