/** Shared pieces of the HTTP benchmarks: a keep-alive client, a closed-loop load generator and server start-up. */
import { type ChildProcess, execSync, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { cpus } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"

/** A numeric `--name value` command-line option. */
export const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

/** The stores to run (`--stores sqlite,postgres`, both by default). */
export const stores = (): Array<"sqlite" | "postgres"> => {
  const i = process.argv.indexOf("--stores")
  const names = i > 0 ? (process.argv[i + 1] ?? "").split(",") : ["sqlite", "postgres"]
  return names.filter((name): name is "sqlite" | "postgres" => name === "sqlite" || name === "postgres")
}

/** The bearer token the benchmark servers seed. */
export const TOKEN = "bench-token"
/** Postgres the benchmarks use (a `bench` schema in it is recreated). */
export const PG_URL = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const agent = new Agent({ keepAlive: true, maxSockets: 64 })

/** One request with the bench token (or `token`); resolves with status and body text. */
export const call = (port: number, method: string, path: string, body?: string, token = TOKEN) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port,
      method,
      path,
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {})
      }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on("error", reject)
    req.end(body)
  })

export const percentile = (sorted: Array<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/** Latency and throughput of one scenario. */
export interface LoadResult {
  readonly rps: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly errors: number
}

/** Runs `next` from `concurrency` closed loops for `seconds`; throughput and latency percentiles in ms. */
export const load = async (
  port: number,
  options: { readonly seconds: number; readonly concurrency: number; readonly tokens?: ReadonlyArray<string> },
  next: (i: number) => [string, string, string?]
): Promise<LoadResult> => {
  const latencies: Array<number> = []
  let errors = 0
  let i = 0
  const end = performance.now() + options.seconds * 1000
  await Promise.all(Array.from({ length: options.concurrency }, async (_, loop) => {
    const token = options.tokens === undefined ? TOKEN : options.tokens[loop % options.tokens.length]!
    while (performance.now() < end) {
      const [method, path, body] = next(i++)
      const start = performance.now()
      const { status } = await call(port, method, path, body, token)
      latencies.push(performance.now() - start)
      if (status >= 400) errors++
    }
  }))
  latencies.sort((a, b) => a - b)
  return {
    rps: latencies.length / options.seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors
  }
}

/** A node:http server answering every request at once with a small JSON body (its port in BARE_PORT). */
const BARE_SERVER = `require("node:http").createServer((req, res) => {
  req.resume()
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"data":[]}'))
}).listen(Number(process.env.BARE_PORT), "127.0.0.1")`

/**
 * The load generator's own ceiling in the same run: the same closed loops against a bare node:http server in its own
 * process (no Mailroom, no database), on the same cores. What an HTTP benchmark reaches is read against it.
 */
export const bareHttpLimit = async (options: { readonly seconds: number; readonly concurrency: number }): Promise<LoadResult> => {
  const port = 3940
  const child = spawn(process.execPath, ["-e", BARE_SERVER], { env: { ...process.env, BARE_PORT: String(port) }, stdio: "ignore" })
  try {
    for (let attempt = 0; attempt < 100 && !(await call(port, "GET", "/").then(() => true, () => false)); attempt++) await sleep(50)
    return await load(port, options, () => ["GET", "/"])
  } finally {
    child.kill("SIGTERM")
  }
}

/** The table row of a bare-server run. */
export const bareHttpRow = (r: LoadResult): string =>
  `| (bare node:http, no Mailroom) | GET / | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} |`

/** What `npm start` and `npm run mailroom` run node with (package.json `config`). */
const CONFIG = (JSON.parse(readFileSync("package.json", "utf8")) as { config: { node_flags: string; malloc_arena_max: string; malloc_mmap_threshold: string } }).config

/** The node flags `npm start` and `npm run mailroom` use (package.json `config.node_flags`). */
export const NODE_FLAGS = CONFIG.node_flags

/**
 * Starts a compiled `mailroom` command (`worker`, …) in its own process with the bench token and database, with the
 * node flags and malloc settings `npm start` uses; BENCH_NODE_ARGS replaces the flags (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`, or "none"), MALLOC_ARENA_MAX the arenas, BENCH_MMAP_THRESHOLD malloc's mmap threshold
 * ("none": glibc's own, which moves; not MALLOC_MMAP_THRESHOLD_, which would change the benchmark's own processes too),
 * BENCH_SCRIPT the compiled server (a copy of another build's `packages/server/dist` inside the repository, to compare
 * builds run by run). Requests are logged, as `npm start` does by default (LOG_REQUESTS=false in the environment turns
 * it off); the log goes to /dev/null unless BENCH_STDOUT is set.
 */
export const startProcess = (command: string, databaseUrl: string, env: Record<string, string> = {}): ChildProcess => {
  const settings: Record<string, string | undefined> = {
    MALLOC_ARENA_MAX: CONFIG.malloc_arena_max,
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: process.env["BENCH_MMAP_THRESHOLD"] ?? CONFIG.malloc_mmap_threshold,
    DATABASE_URL: databaseUrl,
    API_TOKEN: TOKEN,
    ...env
  }
  if (settings["MALLOC_MMAP_THRESHOLD_"] === "none") delete settings["MALLOC_MMAP_THRESHOLD_"]
  return spawn("node", [...nodeArgs(), process.env["BENCH_SCRIPT"] ?? "packages/server/dist/mailroom.mjs", command], {
    env: settings,
    stdio: ["ignore", process.env["BENCH_STDOUT"] ? "inherit" : "ignore", "inherit"]
  })
}

/** The node flags of the Mailroom processes a benchmark starts. */
export const nodeArgs = (): Array<string> => {
  const chosen = process.env["BENCH_NODE_ARGS"]
  if (chosen === undefined) return NODE_FLAGS.split(" ")
  return chosen === "none" ? [] : chosen.split(" ").filter(Boolean)
}

/** Starts the compiled server (as `npm start` runs it) and waits until it answers. */
export const startServer = async (databaseUrl: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> => {
  const child = startProcess("serve", databaseUrl, { PORT: String(port), ...env })
  for (let attempt = 0; attempt < 300; attempt++) {
    const up = await call(port, "GET", "/api/templates?per_page=1").then((r) => r.status === 200, () => false)
    if (up) return child
    await sleep(100)
  }
  throw new Error("server did not start")
}

/** Creates `count` API tokens with every ability (one per simulated client); their secrets. */
export const clientTokens = async (port: number, count: number): Promise<Array<string>> => {
  const tokens: Array<string> = []
  for (let i = 0; i < count; i++) {
    const created = await call(port, "POST", "/api/tokens", JSON.stringify({ name: `bench client ${i}`, abilities: ["all"] }))
    if (created.status !== 201 && created.status !== 200) throw new Error(`token: ${created.status} ${created.text}`)
    tokens.push((JSON.parse(created.text) as { data: { token: string } }).data.token)
  }
  return tokens
}

/** A memory figure (`VmHWM`, `VmRSS`, …) of a running process in MB, from /proc (0 where /proc is missing). */
const statusMb = (pid: number | undefined, field: string): number => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/** CPU time a running process has used so far (user and system, every thread) in ms, from /proc (NaN where it is missing). */
export const cpuMs = (pid: number | undefined): number => {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14th and 15th
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return Number.NaN
  }
}

/**
 * CPU time (ms) the machine's Postgres processes have used so far, summed over those running now (the server's
 * pooled backends live as long as it does, so a difference across a measured window is Postgres' share of it).
 */
export const postgresCpuMs = (): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue
    } catch {
      continue
    }
    const cpu = cpuMs(Number(entry))
    if (!Number.isNaN(cpu)) total += cpu
  }
  return total
}

/** The kernel's clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/** Peak resident memory (VmHWM) of a running process in MB, from /proc (0 where /proc is missing). */
export const peakRssMb = (pid: number | undefined): number => statusMb(pid, "VmHWM")

/** Resident memory now (VmRSS) of a running process in MB, from /proc (0 where /proc is missing). */
export const rssMb = (pid: number | undefined): number => statusMb(pid, "VmRSS")

/** Stops a server started by startServer and waits until it has exited (a graceful stop takes ~2 s; SIGKILL after 15). */
export const stopServer = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
  await exited
  clearTimeout(timer)
}

/** Recreates a schema (empty); the database URL that works inside it. */
export const postgresSchema = (schema: string): string => {
  execSync(`psql "${PG_URL}" -qc "SET client_min_messages = warning; DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}"`)
  const url = new URL(PG_URL)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return url.toString()
}

/** Drops a schema postgresSchema made. */
export const dropPostgresSchema = (schema: string): void => {
  execSync(`psql "${PG_URL}" -qc "SET client_min_messages = warning; DROP SCHEMA IF EXISTS ${schema} CASCADE"`)
}

/** Recreates the `bench` schema; the database URL that works inside it. */
export const resetPostgres = (): string => postgresSchema("bench")

/** One line describing the machine and date, for RESULTS.md. */
export const machine = (): string =>
  `${new Date().toISOString().slice(0, 10)} on ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`

/** Closes the client's keep-alive sockets so the process can exit. */
export const closeClient = (): void => agent.destroy()
