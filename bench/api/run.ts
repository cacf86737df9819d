/**
 * API benchmark: requests/s and p50/p95/p99 for GET one template, GET the templates list and POST a template,
 * with 10,000 templates present, on SQLite and on Postgres. The server runs as `npm start` does (compiled, in its
 * own process); this process is the load generator. Usage: npm run bench:api [-- --seconds 10 --concurrency 16]
 */
import { rmSync } from "node:fs"
import { arg, bareHttpLimit, bareHttpRow, call, closeClient, load, machine, resetPostgres, startServer, stopServer } from "../lib.js"

const SECONDS = arg("seconds", 8)
const CONCURRENCY = arg("concurrency", 16)
const SEED = arg("seed", 10_000)

const rows: Array<string> = [bareHttpRow(await bareHttpLimit({ seconds: SECONDS, concurrency: CONCURRENCY }))]
console.log(rows[0])
for (const store of ["sqlite", "postgres"] as const) {
  const databaseUrl = store === "sqlite" ? "sqlite:./bench/api/data/bench.db" : resetPostgres()
  if (store === "sqlite") rmSync("bench/api/data", { recursive: true, force: true })
  const port = 3900 + rows.length
  const server = await startServer(databaseUrl, port)
  try {
    let seeded = 0
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (seeded < SEED) {
        const n = seeded++
        await call(port, "POST", "/api/templates", JSON.stringify({ name: `Template ${n}`, html: `<p>Body ${n} [[[content]]]</p>` }))
      }
    }))
    const listed = JSON.parse((await call(port, "GET", "/api/templates?per_page=100")).text)
    const ids: Array<string> = listed.data.map((t: { uuid: string }) => t.uuid)
    const scenarios: Array<[string, (i: number) => [string, string, string?]]> = [
      ["GET /api/templates/{uuid}", (i) => ["GET", `/api/templates/${ids[i % ids.length]}`]],
      ["GET /api/templates (page of 15, total of 10k)", (i) => ["GET", `/api/templates?page=${(i % 600) + 1}`]],
      ["POST /api/templates", (i) => ["POST", "/api/templates", JSON.stringify({ name: `Bench ${i}`, html: "<p>[[[content]]]</p>" })]]
    ]
    for (const [name, next] of scenarios) {
      const r = await load(port, { seconds: SECONDS, concurrency: CONCURRENCY }, next)
      const line = `| ${store} | ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} |`
      console.log(line)
      rows.push(line)
    }
  } finally {
    await stopServer(server)
  }
}

console.log(`\n${machine()}; ${CONCURRENCY} concurrent keep-alive connections, ${SECONDS} s per scenario, ${SEED} templates seeded; the first row is the load generator's ceiling (the same connections against a bare node:http server).`)
console.log("| store | request | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
closeClient()
