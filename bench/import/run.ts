/**
 * Import benchmark: a CSV of 1,000,000 rows (email, first_name, last_name, tags, two extra columns) is sent through
 * the API in appended parts of about 8 MB, started, and imported by the server's own worker (the server runs compiled,
 * as `npm start` does). Measures rows/s from POST start to status `completed`, the progress a client sees while it
 * runs, how long the API answers a read and a write meanwhile (a GET and a PUT of the list, each every 50 ms), and the
 * server's peak RSS; on SQLite and Postgres. Beside each figure, in the same run: the store's bare loop writing the same
 * rows (bench/import/storeLimit.ts) and csv-parse alone over the same parts. Usage: npm run bench:import [-- --count 1000000 --part-mb 8 --stores sqlite,postgres --sorted]
 */
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { importWindowRows } from "@mailroom/core"
import { ConfigProvider, Effect } from "effect"
import { ServerConfig } from "../../packages/server/src/ServerConfig.js"
import { arg, call, closeClient, cpuMs, machine, peakRssMb, percentile, resetPostgres, startServer, stopServer, stores } from "../lib.js"
import { csvLine, HEADER } from "./rows.js"
import { parseLimit, postgresLimit, sqliteLimit } from "./storeLimit.js"

const COUNT = arg("count", 1_000_000)
const PART_BYTES = arg("part-mb", 8) * 1_000_000
const SQLITE_FILE = "./bench/import/data/bench.db"
const SORTED = process.argv.includes("--sorted")
/** The server's own import settings for this environment on `databaseUrl` (its configuration read as it reads it). */
const importSettings = (databaseUrl: string) => {
  const env = new Map(Object.entries({ ...process.env, DATABASE_URL: databaseUrl }).filter((e): e is [string, string] => e[1] !== undefined))
  const config = Effect.runSync(Effect.withConfigProvider(ServerConfig, ConfigProvider.fromMap(env)))
  return { batch: config.importBatchRows, window: importWindowRows(config.importWindowRows, config.importBatchRows) }
}

/** The CSV in parts of about PART_BYTES, each ending at a line break. */
const csvParts = (count: number): Array<string> => {
  const parts: Array<string> = []
  let part = `${HEADER}\n`
  for (let i = 1; i <= count; i++) {
    part += csvLine(i, SORTED)
    if (part.length >= PART_BYTES) {
      parts.push(part)
      part = ""
    }
  }
  if (part !== "") parts.push(part)
  return parts
}

const json = (text: string) => JSON.parse(text) as { data: Record<string, unknown> }

const rows: Array<string> = []
const parts = csvParts(COUNT)
console.log(`CSV: ${COUNT} rows in ${parts.length} parts, ${(parts.reduce((n, p) => n + p.length, 0) / 1e6).toFixed(1)} MB`)
const parseRate = await parseLimit(parts, COUNT)
console.log(`csv-parse alone: ${parseRate.toFixed(0)} rows/s`)
for (const store of stores()) {
  if (store === "sqlite") rmSync("bench/import/data", { recursive: true, force: true })
  const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
  const { batch, window } = importSettings(databaseUrl)
  const port = 3960 + rows.length
  const server = await startServer(databaseUrl, port, { WORKERS: "true" })
  let measured = ""
  try {
    const list = json((await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "b@example.com" }))).text)
      .data as { id: number; uuid: string }
    const uploadStart = performance.now()
    const created = await call(port, "POST", "/api/subscriber-imports", JSON.stringify({
      subscribers_csv: parts[0],
      email_list_id: list.id,
      subscribe_unsubscribed: false,
      unsubscribe_others: false
    }))
    if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text.slice(0, 300)}`)
    const id = json(created.text).data["id"] as number
    for (const part of parts.slice(1)) {
      const appended = await call(port, "POST", `/api/subscriber-imports/${id}/append`, JSON.stringify({ subscribers_csv: part }))
      if (appended.status !== 200) throw new Error(`append: ${appended.status} ${appended.text.slice(0, 300)}`)
    }
    const uploadSeconds = (performance.now() - uploadStart) / 1000
    const uploadRss = peakRssMb(server.pid)
    const cpuBefore = cpuMs(server.pid)
    const start = performance.now()
    const started = await call(port, "POST", `/api/subscriber-imports/${id}/start`)
    if (started.status !== 204) throw new Error(`start: ${started.status} ${started.text}`)
    let status = "pending"
    // a client reading the API and one writing to it while the import runs: one request at a time each, 50 ms apart
    const timed = (method: string, body?: string) => {
      const times: Array<number> = []
      const done = (async () => {
        while (status !== "completed" && status !== "failed") {
          const sent = performance.now()
          const answer = await call(port, method, `/api/email-lists/${list.uuid}`, body)
          if (answer.status !== 200) throw new Error(`${method} during the import: ${answer.status}`)
          times.push(performance.now() - sent)
          await sleep(50)
        }
      })()
      return { done, times }
    }
    const reads = timed("GET")
    const writes = timed("PUT", JSON.stringify({ name: "Bench", default_from_email: "b@example.com" }))
    const progress: Array<number> = []
    let last: Record<string, unknown> = {}
    while (status !== "completed" && status !== "failed") {
      await sleep(250)
      last = json((await call(port, "GET", `/api/subscriber-imports/${id}`)).text).data
      status = last["status"] as string
      progress.push(Number(last["imported_subscribers_count"] ?? 0))
    }
    const seconds = (performance.now() - start) / 1000
    const cpuPerRow = ((cpuMs(server.pid) - cpuBefore) * 1000) / COUNT
    await Promise.all([reads.done, writes.done])
    const latency = (times: Array<number>) => {
      const sorted = times.sort((a, b) => a - b)
      return [50, 99].map((p) => percentile(sorted, p).toFixed(0)).concat((sorted.at(-1) ?? 0).toFixed(0)).join(" / ")
    }
    const total = JSON.parse((await call(port, "GET", `/api/email-lists/${list.uuid}/subscribers?per_page=1`)).text).meta.total
    const seen = progress.filter((n) => n > 0 && n < COUNT)
    measured = `| ${store} | ${COUNT} | ${batch} | ${window} | ${uploadSeconds.toFixed(1)} | ${seconds.toFixed(1)} | ${(COUNT / seconds).toFixed(0)} | ` +
      `${status} | ${total} | ${last["error_count"]} | ${seen.length} | ${latency(reads.times)} | ${latency(writes.times)} | ${uploadRss.toFixed(0)} | ${peakRssMb(server.pid).toFixed(0)} | ${cpuPerRow.toFixed(1)} |`
    console.log(`${measured} (the bare loop runs next)`)
  } finally {
    await stopServer(server)
  }
  const limit = store === "sqlite"
    ? await sqliteLimit(SQLITE_FILE, "./bench/import/data/bare.db", COUNT, batch, SORTED, window)
    : await postgresLimit(databaseUrl, "bench", COUNT, batch, SORTED, window)
  const line = `${measured} ${limit.toFixed(0)} | ${parseRate.toFixed(0)} |`
  console.log(line)
  rows.push(line)
}

console.log(`\n${machine()}; ${COUNT} rows, 6 columns (tags in 5 patterns), parts of ~${PART_BYTES / 1e6} MB.`)
console.log("The store's bare loop writes the same rows into empty copies of the same tables, in transactions of the same size and windows of the same order, with no Mailroom (bench/import/storeLimit.ts).")
console.log("| store | rows | rows per batch | rows per sorted window | upload s | import s | rows/s | status | subscribers | errors | progress readings | GET during import p50 / p99 / max ms | PUT during import p50 / p99 / max ms | peak RSS MB, upload | peak RSS MB, all | server CPU µs a row | store's bare loop, rows/s | csv-parse alone, rows/s |")
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
closeClient()
