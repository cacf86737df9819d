/**
 * Compares builds of the server in turns, for changes too small for back-to-back runs on a machine whose speed moves
 * by a third within minutes: every build (`current`, or a copy of `packages/server/dist` inside the repository, so that
 * its packages resolve) runs as its own server on its own SQLite file (or Postgres schema, `--store postgres`), as
 * `npm start` runs it, and the same 8 keep-alive clients drive them in turns of 1.5 s (the order reversed every other
 * turn). Each build's row gives its requests a second, the server's CPU a request (every thread, from /proc) and the
 * p99 of its turns (on Postgres also Postgres' CPU a request, taken while only that build is driven). A build may carry
 * settings after a colon: `nolog` (LOG_REQUESTS=false), `warn` (LOG_LEVEL=warn), `workers` (the background workers in
 * the server, as `npm start` runs them; WORKERS=false otherwise), or node flags joined by `+`
 * (`current:--max-semi-space-size=8`), added after `npm start`'s.
 * Usage: npm run bench:compare -- --builds current,old-dist,current:nolog --request post|posttag|get|healthz --turns 8
 * [--store sqlite|postgres]
 */
import { rmSync } from "node:fs"
import { arg, call, clientTokens, closeClient, cpuMs, dropPostgresSchema, load, machine, NODE_FLAGS, percentile, postgresCpuMs, postgresSchema, startServer, stopServer } from "../lib.js"

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at < 0 ? fallback : process.argv[at + 1] ?? fallback
}
const BUILDS = option("builds", "current").split(",")
const REQUEST = option("request", "post")
const STORE = option("store", "sqlite")
if (STORE !== "sqlite" && STORE !== "postgres") throw new Error(`unknown store ${STORE} (sqlite or postgres)`)
const TURNS = arg("turns", 8)
/** The node flags every build starts with: BENCH_NODE_ARGS (`none`: no flags), else `npm start`'s. */
const BASE_NODE_ARGS = process.env["BENCH_NODE_ARGS"] === "none" ? "" : process.env["BENCH_NODE_ARGS"] ?? NODE_FLAGS
const SECONDS = 1.5
const SETTINGS: Record<string, Record<string, string>> = {
  "": {},
  nolog: { LOG_REQUESTS: "false" },
  warn: { LOG_LEVEL: "warn" },
  workers: { WORKERS: "true" }
}

interface Contender {
  readonly name: string
  readonly port: number
  readonly server: Awaited<ReturnType<typeof startServer>>
  readonly tokens: ReadonlyArray<string>
  readonly next: () => [string, string, string?]
  cpu: number
  postgresCpu: number
  requests: number
  readonly p99s: Array<number>
}

const contenders: Array<Contender> = []
for (const [index, name] of BUILDS.entries()) {
  const [build = "current", setting = ""] = name.split(":")
  const flags = setting.startsWith("--") ? setting.split("+") : []
  const settings = flags.length > 0 ? {} : SETTINGS[setting]
  if (settings === undefined) throw new Error(`unknown setting ${setting} (nolog, warn, workers or node flags)`)
  if (build === "current") delete process.env["BENCH_SCRIPT"]
  else process.env["BENCH_SCRIPT"] = `${build}/mailroom.mjs`
  // node flags after npm start's own (or BENCH_NODE_ARGS'), which they override
  process.env["BENCH_NODE_ARGS"] = [BASE_NODE_ARGS, ...flags].join(" ").trim() || "none"
  const folder = `bench/compare/data/${index}`
  rmSync(folder, { recursive: true, force: true })
  const port = 3970 + index
  const database = STORE === "postgres" ? postgresSchema(`bench_compare_${index}`) : `sqlite:${folder}/bench.db`
  const server = await startServer(database, port, { WORKERS: "false", ...settings })
  const list = JSON.parse((await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "b@example.com" }))).text)
    .data as { uuid: string }
  let sent = 0
  const next = (): [string, string, string?] =>
    REQUEST === "healthz"
      ? ["GET", "/healthz"]
      : REQUEST === "get"
      ? ["GET", `/api/email-lists/${list.uuid}`]
      : REQUEST === "posttag"
      ? ["POST", `/api/email-lists/${list.uuid}/subscribers`, JSON.stringify({ email: `c${sent++}@example.com`, tags: ["signup"] })]
      : ["POST", `/api/email-lists/${list.uuid}/subscribers`, JSON.stringify({ email: `c${sent++}@example.com` })]
  const tokens = await clientTokens(port, 8)
  // a fresh process's code is not optimised yet
  await load(port, { seconds: 1, concurrency: 8, tokens }, next)
  contenders.push({ name, port, server, tokens, next, cpu: 0, postgresCpu: 0, requests: 0, p99s: [] })
}
for (let turn = 0; turn < TURNS; turn++) {
  for (const contender of turn % 2 === 0 ? contenders : [...contenders].reverse()) {
    const before = cpuMs(contender.server.pid)
    const postgresBefore = STORE === "postgres" ? postgresCpuMs() : 0
    const result = await load(contender.port, { seconds: SECONDS, concurrency: 8, tokens: contender.tokens }, contender.next)
    contender.cpu += cpuMs(contender.server.pid) - before
    if (STORE === "postgres") contender.postgresCpu += postgresCpuMs() - postgresBefore
    contender.requests += result.rps * SECONDS
    contender.p99s.push(result.p99)
  }
}
console.log(`\n${machine()}; ${STORE}, ${REQUEST}, ${TURNS} turns of ${SECONDS} s each, 8 clients.`)
console.log("| build | req/s | server CPU µs a request | Postgres CPU µs a request | p99 ms, median of the turns |")
console.log("|---|---|---|---|---|")
for (const contender of contenders) {
  const p99 = percentile([...contender.p99s].sort((a, b) => a - b), 50)
  console.log(`| ${contender.name} | ${(contender.requests / (TURNS * SECONDS)).toFixed(0)} | ${((contender.cpu * 1000) / contender.requests).toFixed(0)} | ${STORE === "postgres" ? ((contender.postgresCpu * 1000) / contender.requests).toFixed(0) : ""} | ${p99.toFixed(2)} |`)
  await stopServer(contender.server)
}
rmSync("bench/compare/data", { recursive: true, force: true })
if (STORE === "postgres") for (const index of BUILDS.keys()) dropPostgresSchema(`bench_compare_${index}`)
closeClient()
