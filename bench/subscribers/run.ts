/**
 * Subscriber-list benchmark: 1,000,000 subscribers in one list, then latency of the list (page 1 and page 500),
 * filter[email], filter[status]=subscribed (all with meta.total) and POST subscriber, on SQLite and Postgres, from
 * 8 concurrent clients (each its own keep-alive connection and its own API token, as separate applications would be).
 * The server runs as `npm start` does, in its own process. Each read first runs 1 s unmeasured (a fresh process's code is
 * not optimised yet and Postgres' buffers are cold), and the load generator's ceiling is measured first against a
 * bare node:http server. Each row also gives the server process's CPU time a request (from /proc, every thread).
 * Usage: npm run bench:subscribers [-- --count 1000000 --concurrency 8 --seconds 6 --stores sqlite,postgres --only POST]
 */
import { rmSync } from "node:fs"
import { arg, bareHttpLimit, bareHttpRow, call, clientTokens, closeClient, cpuMs, load, machine, PG_URL, postgresCpuMs, resetPostgres, startServer, stopServer, stores } from "../lib.js"
import { seedPostgres, seedSqlite } from "./seed.js"

const COUNT = arg("count", 1_000_000)
const SECONDS = arg("seconds", 6)
const CONCURRENCY = arg("concurrency", 8)
const SQLITE_FILE = "./bench/subscribers/data/bench.db"

const rows: Array<string> = [`${bareHttpRow(await bareHttpLimit({ seconds: SECONDS, concurrency: CONCURRENCY }))} | |`]
console.log(rows[0])
for (const store of stores()) {
  if (store === "sqlite") rmSync("bench/subscribers/data", { recursive: true, force: true })
  const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
  const port = 3950 + rows.length
  let server = await startServer(databaseUrl, port, { WORKERS: "false" })
  try {
    const created = await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "b@example.com" }))
    const list = JSON.parse(created.text).data as { id: number; uuid: string }
    await stopServer(server)
    const seedStart = performance.now()
    if (store === "sqlite") seedSqlite(SQLITE_FILE, list.id, COUNT)
    else seedPostgres(PG_URL, list.id, COUNT)
    const seedSeconds = (performance.now() - seedStart) / 1000
    console.log(`${store}: seeded ${COUNT} subscribers in ${seedSeconds.toFixed(1)} s`)
    server = await startServer(databaseUrl, port, { WORKERS: "false" })
    const tokens = await clientTokens(port, CONCURRENCY)
    const base = `/api/email-lists/${list.uuid}/subscribers`
    const total = JSON.parse((await call(port, "GET", base)).text).meta.total
    if (total !== COUNT) throw new Error(`expected ${COUNT} subscribers, the API reports ${total}`)
    const random = () => 1 + Math.floor(Math.random() * COUNT)
    const scenarios: Array<[string, (i: number) => [string, string, string?]]> = [
      ["GET subscribers, page 1 (default sort -created_at)", () => ["GET", base]],
      ["GET subscribers, page 500", () => ["GET", `${base}?page=500`]],
      ["GET subscribers, filter[email]", () => ["GET", `${base}?filter%5Bemail%5D=user${random()}%40example.com`]],
      ["GET subscribers, filter[status]=subscribed", () => ["GET", `${base}?filter%5Bstatus%5D=subscribed`]],
      ["POST subscriber (new address)", (i) => ["POST", base, JSON.stringify({ email: `new${i}-${store}@example.org`, first_name: "New" })]],
      ["POST subscriber with a tag (new address)", (i) =>
        ["POST", base, JSON.stringify({ email: `tagged${i}-${store}@example.org`, first_name: "New", tags: ["signup"] })]]
    ]
    // a fresh process runs code V8 has not optimised yet, and Postgres' buffers start cold: each read runs 1 s unmeasured
    for (const [, next] of scenarios.filter(([name]) => name.startsWith("GET"))) await load(port, { seconds: 1, concurrency: CONCURRENCY, tokens }, next)
    const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] ?? "" : ""
    for (const [name, next] of scenarios.filter(([name]) => name.includes(only))) {
      const cpuBefore = cpuMs(server.pid)
      const postgresBefore = postgresCpuMs()
      const r = await load(port, { seconds: SECONDS, concurrency: CONCURRENCY, tokens }, next)
      // the server's CPU a request (every thread, collections included): steadier than req/s when the machine's speed moves
      const cpu = (cpuMs(server.pid) - cpuBefore) / (r.rps * SECONDS)
      // Postgres shares the 2 cores: its CPU a request is what the server's requests cost the machine beside their own
      const postgres = store === "postgres" ? ((postgresCpuMs() - postgresBefore) / (r.rps * SECONDS)).toFixed(2) : ""
      const line = `| ${store} | ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${cpu.toFixed(2)} | ${postgres} |`
      console.log(line)
      rows.push(line)
    }
  } finally {
    await stopServer(server)
  }
}

console.log(`\n${machine()}; ${COUNT} subscribers in one list, ${CONCURRENCY} concurrent clients (a keep-alive connection and a token each), ${SECONDS} s per scenario after 1 s of each read unmeasured; the first row is the load generator's ceiling (the same clients against a bare node:http server).`)
console.log("| store | request | req/s | p50 ms | p95 ms | p99 ms | errors | server CPU ms a request | Postgres CPU ms a request |\n|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
closeClient()
