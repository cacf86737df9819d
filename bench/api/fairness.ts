/**
 * Fairness benchmark: one client (the bench token) keeps 200 requests in flight for `--seconds`, while a second
 * client (its own token) sends one request at a time; reports the second client's latency percentiles and the first
 * one's throughput, on SQLite and Postgres, with `CLIENT_CONCURRENCY` at the store's default (0) and off (10,000).
 * Usage: npm run bench:fairness [-- --seconds 10 --seed 20000 --levels 0,10000 --stores sqlite]
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { arg, call, closeClient, machine, resetPostgres, startServer, stopServer, stores, TOKEN } from "../lib.js"

const SECONDS = arg("seconds", 10)
const SEED = arg("seed", 20_000)
const FILE = "./bench/api/data/fairness.db"

const percentile = (sorted: Array<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const heavyAgent = new Agent({ keepAlive: true, maxSockets: 256 })
const lightAgent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One GET with `token` through `agent`; its status. */
const get = (port: number, path: string, token: string, agent: Agent) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume().on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", reject)
    req.end()
  })

const rows: Array<string> = []
const LEVELS = (process.argv.includes("--levels") ? process.argv[process.argv.indexOf("--levels") + 1]! : "0,10000").split(",").map(Number)
for (const store of stores()) for (const concurrency of LEVELS) {
  rmSync("bench/api/data", { recursive: true, force: true })
  const databaseUrl = store === "sqlite" ? `sqlite:${FILE}` : resetPostgres()
  // 0: the default of `npm start` for the store
  const env: Record<string, string> = concurrency === 0 ? {} : { CLIENT_CONCURRENCY: String(concurrency) }
  const server = await startServer(databaseUrl, 3950, env)
  try {
    const list = JSON.parse((await call(3950, "POST", "/api/email-lists", JSON.stringify({ name: "Fair", default_from_email: "f@example.com" }))).text).data
    let seeded = 0
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (seeded < SEED) {
        const n = seeded++
        await call(3950, "POST", `/api/email-lists/${list.uuid}/subscribers`, JSON.stringify({ email: `p${n}@example.com`, first_name: `P${n}` }))
      }
    }))
    const output = execFileSync("node", ["packages/server/dist/mailroom.mjs", "token:create", "--name", "second", "--ability", "read"], {
      env: { ...process.env, DATABASE_URL: databaseUrl }
    }).toString()
    const second = output.trim().split("\n").at(-1)!.trim()
    const path = (i: number) => `/api/email-lists/${list.uuid}/subscribers?page=${(i % 500) + 1}&filter[search]=p1`
    const end = performance.now() + SECONDS * 1000
    let heavy = 0
    const latencies: Array<number> = []
    await Promise.all([
      ...Array.from({ length: 200 }, async () => {
        while (performance.now() < end) {
          await get(3950, path(heavy++), TOKEN, heavyAgent)
        }
      }),
      (async () => {
        let i = 0
        while (performance.now() < end) {
          const start = performance.now()
          const status = await get(3950, path(i++), second, lightAgent)
          if (status !== 200) throw new Error(`second client got ${status}`)
          latencies.push(performance.now() - start)
        }
      })()
    ])
    latencies.sort((a, b) => a - b)
    const level = concurrency === 0 ? `default (${store === "sqlite" ? 2 : 8})` : concurrency >= 10_000 ? "10,000 (off)" : String(concurrency)
    const line = `| ${store} | ${level} | ${(heavy / SECONDS).toFixed(0)} | ${latencies.length} | ` +
      `${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 95).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} |`
    console.log(line)
    rows.push(line)
  } finally {
    await stopServer(server)
  }
}
closeClient()
heavyAgent.destroy()
lightAgent.destroy()
console.log(`\n${machine()}; ${SEED} subscribers, GET subscribers (search, pages 1-500), ${SECONDS} s`)
console.log("| store | CLIENT_CONCURRENCY | first client req/s (200 in flight) | second client requests | p50 ms | p95 ms | p99 ms |")
console.log("|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
