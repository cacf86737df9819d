/**
 * API benchmark: requests/s and p50/p95/p99 for GET one template, GET the templates list and POST a template,
 * with 10,000 templates present, on SQLite and on Postgres. The server runs as `npm start` does (compiled, in its
 * own process); this process is the load generator. Usage: npm run bench:api [-- --seconds 10 --concurrency 16]
 */
import { type ChildProcess, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { cpus } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const SECONDS = arg("seconds", 8)
const CONCURRENCY = arg("concurrency", 16)
const SEED = arg("seed", 10_000)
const TOKEN = "bench-token"
const PG_URL = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })

const call = (port: number, method: string, path: string, body?: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({
      host: "127.0.0.1", port, method, path, agent,
      headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json", ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}) }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on("error", reject)
    req.end(body)
  })

const percentile = (sorted: Array<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/** Runs `next` from CONCURRENCY loops for SECONDS; returns throughput and latency percentiles (ms). */
const load = async (port: number, next: (i: number) => [string, string, string?]) => {
  const latencies: Array<number> = []
  let errors = 0
  let i = 0
  const end = performance.now() + SECONDS * 1000
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < end) {
      const [method, path, body] = next(i++)
      const start = performance.now()
      const { status } = await call(port, method, path, body)
      latencies.push(performance.now() - start)
      if (status >= 400) errors++
    }
  }))
  latencies.sort((a, b) => a - b)
  return { rps: latencies.length / SECONDS, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), errors }
}

const startServer = async (databaseUrl: string, port: number): Promise<ChildProcess> => {
  const child = spawn("node", ["packages/server/dist/main.js", "serve"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), API_TOKEN: TOKEN, LOG_REQUESTS: "false" },
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let attempt = 0; attempt < 100; attempt++) {
    const up = await call(port, "GET", "/api/templates?per_page=1").then((r) => r.status === 200, () => false)
    if (up) return child
    await sleep(100)
  }
  throw new Error("server did not start")
}

const resetPostgres = async () => {
  const { execSync } = await import("node:child_process")
  execSync(`psql "${PG_URL}" -qc "DROP SCHEMA IF EXISTS bench CASCADE; CREATE SCHEMA bench"`)
  const url = new URL(PG_URL)
  url.searchParams.set("options", "-c search_path=bench")
  return url.toString()
}

const rows: Array<string> = []
for (const store of ["sqlite", "postgres"] as const) {
  const databaseUrl = store === "sqlite" ? "sqlite:./bench/api/data/bench.db" : await resetPostgres()
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
      const r = await load(port, next)
      const line = `| ${store} | ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} |`
      console.log(line)
      rows.push(line)
    }
  } finally {
    server.kill("SIGTERM")
    await sleep(300)
  }
}

console.log(`\n${new Date().toISOString().slice(0, 10)} on ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}, node ${process.version}; ${CONCURRENCY} concurrent keep-alive connections, ${SECONDS} s per scenario, ${SEED} templates seeded.`)
console.log("| store | request | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
agent.destroy()
