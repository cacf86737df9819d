/**
 * Automation benchmark (issue 16, "Measure"), the loopback SMTP sink of bench/send in its own process:
 * 1. First step: `--subscribers` (100,000) seeded subscribers, all subscribed, enter an automation through a `date`
 *    trigger (its time already come) with `send_mail` → `wait 1 day` → `condition opened` (yes: `send_mail`). Measures
 *    the enrolment (from `POST start` to all positions entered, polled in the database) and the rate at which the
 *    first step's mails reach the sink (from `POST start`, and from the first mail, to the last), checks that every
 *    subscriber got exactly one mail and that nothing more arrives. SQLite runs as `npm start` does (one `serve`
 *    process with its workers, default settings); Postgres runs `serve` and 2 `mailroom worker` processes. Meanwhile a
 *    client reads `GET /api/email-lists` every 100 ms (the server's responsiveness during the burst), and the CPU
 *    time of each process, of Postgres and of everything else on the machine is taken from /proc (other work on a
 *    shared machine shows up in "other processes' CPU").
 * 2. Scheduler tick: with the servers stopped, `--waiting` (1,000,000) more positions are inserted into
 *    `automation_runs` (set-based: a recursive CTE on SQLite, generate_series on Postgres) for the started automation,
 *    active and due a day ahead; then `AutomationRunRepository.claim` (the scheduler's query when nothing is due),
 *    through the store's repository layer in this process, is timed `--ticks` (200) times, before and after ANALYZE,
 *    and the plan of its SQL is printed (EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on Postgres).
 * Usage: npm run bench:automations [-- --stores sqlite,postgres --subscribers 100000 --waiting 1000000 --ticks 200]
 *   `--waiting 0` skips part 2; `--trace` adds positions moved, sends queued and sends recorded to the progress lines;
 *   `--pg-log` makes Mailroom's Postgres connections log every statement with its duration (the Postgres server log);
 *   `--analyze-after-enrol` runs ANALYZE automation_runs on Postgres once every position entered (diagnosis).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { cpus } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"
import { SqlClient } from "@effect/sql"
import { AutomationRunRepository } from "@mailroom/core"
import { postgresClient, PostgresStorage } from "@mailroom/postgres"
import { SqliteStorage } from "@mailroom/sqlite"
import Database from "better-sqlite3"
import { Effect, ManagedRuntime } from "effect"
import {
  arg,
  call,
  closeClient,
  machine,
  peakRssMb,
  PG_URL,
  resetPostgres,
  startProcess,
  startServer,
  stopServer,
  stores
} from "../lib.js"
import { html as newsletter } from "../send/html.js"
import { seedPostgres, seedSqlite } from "../subscribers/seed.js"

const SUBSCRIBERS = arg("subscribers", 100_000)
const WAITING = arg("waiting", 1_000_000)
const TICKS = arg("ticks", 200)
const SMTP_PORT = 2641
const STATUS_PORT = 2642
const PORT = 3993
const DATA = "bench/automations/data"
const SQLITE_FILE = `./${DATA}/bench.db`
const env = { SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`, APP_URL: "https://mail.example.com" }

interface SinkStatus {
  readonly messages: number
  readonly recipients: number
  readonly duplicates: number
  readonly cpuMs: number
}
const sink = async (): Promise<SinkStatus> => JSON.parse(await (await fetch(`http://127.0.0.1:${STATUS_PORT}/`)).text())

const startSink = async (): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/send/sink.ts", String(SMTP_PORT), String(STATUS_PORT)], {
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let i = 0; i < 100; i++) {
    if (await sink().then(() => true, () => false)) return child
    await sleep(100)
  }
  throw new Error("sink did not start")
}

/** CPU seconds (user + system) a process has used so far, from /proc (0 where /proc is missing). */
const cpuSeconds = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** CPU seconds used by the machine (all cores, busy time) and by every `postgres` process, from /proc (0 without). */
const machineCpu = (): { busy: number; postgres: number } => {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number)
    const busy = ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!
    let postgres = 0
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        if (stat.includes(" (postgres) ")) postgres += cpuSeconds(Number(pid))
      } catch {
        // gone meanwhile
      }
    }
    return { busy: busy / 100, postgres }
  } catch {
    return { busy: 0, postgres: 0 }
  }
}

/** Runs SQL through psql in the bench schema; its output. */
const psql = (script: string): string =>
  execFileSync("psql", [PG_URL, "-qAt", "-v", "ON_ERROR_STOP=1", "-f", "-"], {
    input: `SET search_path = bench;\n${script}`,
    stdio: ["pipe", "pipe", "inherit"]
  }).toString()

/** Runs SQL on the SQLite file (a connection of its own). */
const sqlite = <A>(use: (db: Database.Database) => A): A => {
  const db = new Database(SQLITE_FILE)
  db.pragma("busy_timeout = 5000")
  try {
    return use(db)
  } finally {
    db.close()
  }
}

/** A JSON API call that must succeed; its `data`. */
const api = async (method: string, path: string, body?: unknown) => {
  const r = await call(PORT, method, path, body === undefined ? undefined : JSON.stringify(body))
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.text === "" ? null : JSON.parse(r.text).data
}

/** `Y-m-d H:i:s` (UTC). */
const scheduleAt = (at: Date) => at.toISOString().slice(0, 19).replace("T", " ")

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/** A fresh store with a list of SUBSCRIBERS seeded subscribers, every one subscribed; its database URL and list. */
const prepare = async (store: "sqlite" | "postgres") => {
  rmSync(DATA, { recursive: true, force: true })
  process.env["PGOPTIONS"] = "-c client_min_messages=warning" // psql: no NOTICE per dropped table
  const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
  delete process.env["PGOPTIONS"]
  if (store === "postgres" && PG_LOG) {
    const url = new URL(databaseUrl)
    url.searchParams.set("options", "-c search_path=bench -c log_min_duration_statement=0")
    return { databaseUrl: url.toString(), ...await seedList(store, databaseUrl) }
  }
  return { databaseUrl, ...await seedList(store, databaseUrl) }
}

/** Creates the list and seeds it. */
const seedList = async (store: "sqlite" | "postgres", databaseUrl: string) => {
  const server = await startServer(databaseUrl, PORT, { ...env, WORKERS: "false" })
  const list = await api("POST", "/api/email-lists", { name: "Bench", default_from_email: "news@example.com" }) as { id: number; uuid: string }
  await stopServer(server)
  const subscribeAll = `UPDATE subscribers SET status = 'subscribed', subscribed_at = created_at, unsubscribed_at = NULL;
    UPDATE email_lists SET active_subscribers_count = ${SUBSCRIBERS}, unconfirmed_count = 0, unsubscribed_count = 0 WHERE id = ${list.id};`
  const seeded = performance.now()
  if (store === "sqlite") {
    seedSqlite(SQLITE_FILE, list.id, SUBSCRIBERS)
    sqlite((db) => db.exec(`${subscribeAll} ANALYZE;`))
  } else {
    seedPostgres(PG_URL, list.id, SUBSCRIBERS)
    psql(`${subscribeAll} VACUUM ANALYZE subscribers;`)
  }
  console.log(`${store}: ${SUBSCRIBERS} subscribers seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)
  return { list }
}

/** Positions in automation_runs (one automation in the store). */
const positionCounter = (store: "sqlite" | "postgres") => {
  if (store === "sqlite") {
    const db = new Database(SQLITE_FILE, { readonly: true })
    db.pragma("busy_timeout = 5000")
    const statement = db.prepare("SELECT count(*) AS n FROM automation_runs")
    return {
      count: async () => Number((statement.get() as { n: number }).n),
      trace: async () => Object.values(db.prepare(TRACE_SQL()).get() as Record<string, number>).join(" / "),
      close: () => db.close()
    }
  }
  const runtime = ManagedRuntime.make(postgresClient({ url: resetUrl(), maxConnections: 1 }))
  return {
    count: () => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM automation_runs`)
      .pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))),
    trace: () => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, number>>(TRACE_SQL()))
      .pipe(Effect.map((rows) => Object.values(rows[0] ?? {}).join(" / ")))),
    close: () => void runtime.dispose()
  }
}

/** With `--pg-log`: Mailroom's Postgres connections log every statement with its duration (the server's log). */
const PG_LOG = process.argv.includes("--pg-log")

/** With `--analyze-after-enrol`: ANALYZE automation_runs on Postgres as soon as every position entered (diagnosis). */
const ANALYZE_AFTER_ENROL = process.argv.includes("--analyze-after-enrol")

/** With `--trace`: positions moved past the first step, sends queued, sends recorded as sent (at each progress line). */
const TRACE = process.argv.includes("--trace")
const TRACE_SQL = () => `SELECT
  (SELECT count(*) FROM automation_runs WHERE lease_owner IS NULL AND next_run_at > '${new Date(Date.now() + 3_600_000).toISOString()}') AS moved,
  (SELECT count(*) FROM sends WHERE automation_mail_id IS NOT NULL) AS queued,
  (SELECT count(*) FROM sends WHERE automation_mail_id IS NOT NULL AND sent_at IS NOT NULL) AS sent`

/** The Postgres URL of the bench schema (as resetPostgres gives it, without recreating the schema). */
const resetUrl = () => {
  const url = new URL(PG_URL)
  url.searchParams.set("options", "-c search_path=bench")
  return url.toString()
}

interface FirstStep {
  readonly enrolFirstS: number
  readonly enrolAllS: number
  readonly firstMailS: number
  readonly lastMailS: number
  readonly mails: number
  readonly recipients: number
  readonly duplicates: number
  readonly extra: number
  readonly listed: number
  readonly sinkCpuUsPerMail: number
  readonly cpu: ReadonlyArray<number>
  /** Latency of GET /api/email-lists from a client polling every 100 ms meanwhile, ms. */
  readonly apiP50: number
  readonly apiMax: number
  readonly apiResets: number
  /** Share of the machine's cores busy from the start to the last mail. */
  readonly machineBusy: number
  /** CPU seconds of the Postgres server's processes over the same time (backends that exited meanwhile are missed). */
  readonly postgresCpu: number
  /** CPU seconds of every other process (not Mailroom's, the sink's, this bench's or Postgres'): other work on the machine. */
  readonly otherCpu: number
  readonly rss: ReadonlyArray<number>
}

/** Part 1: the date trigger enrols every member; the first step's mails to the sink. */
const firstStep = async (store: "sqlite" | "postgres", databaseUrl: string, list: { readonly uuid: string }, sinkPid: number | undefined) => {
  const server = await startServer(databaseUrl, PORT, env)
  const workers = store === "postgres" ? [startProcess("worker", databaseUrl, env), startProcess("worker", databaseUrl, env)] : []
  const counter = positionCounter(store)
  try {
    await sleep(2_000) // the workers are up
    const first = await api("POST", "/api/automation-mails", { name: "Bench first", subject: "News for {{ subscriber.first_name }}", html: newsletter() }) as { uuid: string }
    const second = await api("POST", "/api/automation-mails", { name: "Bench follow-up", subject: "More for {{ subscriber.first_name }}", html: newsletter() }) as { uuid: string }
    const automation = await api("POST", "/api/automations", {
      name: "Bench automation",
      email_list_uuid: list.uuid,
      trigger: { type: "date", at: scheduleAt(new Date(Date.now() - 60_000)), repeat: "none" },
      actions: [
        { type: "send_mail", automation_mail_uuid: first.uuid },
        { type: "wait", length: 1, unit: "days" },
        {
          type: "condition",
          condition: { type: "opened", automation_mail_uuid: first.uuid },
          window: { length: 1, unit: "days" },
          yes: [{ type: "send_mail", automation_mail_uuid: second.uuid }],
          no: []
        }
      ]
    }) as { uuid: string }
    const before = await sink()
    const cpuBefore = [server, ...workers].map((p) => cpuSeconds(p.pid))
    const machineBefore = machineCpu()
    const sinkBefore = cpuSeconds(sinkPid)
    const benchBefore = process.cpuUsage()
    // an API client reading one list every 100 ms meanwhile: the server's responsiveness during the burst
    const latencies: Array<number> = []
    let probing = true
    let resets = 0
    const probe = (async () => {
      while (probing) {
        const sent = performance.now()
        // a kept-alive socket the server closed meanwhile is reset: counted, and the request sent again
        const ok = await call(PORT, "GET", "/api/email-lists?per_page=1").then(() => true, () => false)
        if (!ok) {
          resets++
          continue
        }
        latencies.push(performance.now() - sent)
        await sleep(100)
      }
    })()
    const start = performance.now()
    await api("POST", `/api/automations/${automation.uuid}/start`)
    let enrolFirst = 0
    let enrolAll = 0
    let firstMail = 0
    let lastMail = 0
    let lastCount = 0
    const deadline = start + 900_000
    for (let poll = 0; lastMail === 0 || enrolAll === 0; poll++) {
      if (performance.now() > deadline) throw new Error("timed out")
      const status = await sink()
      const now = performance.now()
      if (firstMail === 0 && status.messages > before.messages) firstMail = now
      if (status.messages >= before.messages + SUBSCRIBERS) lastMail = now
      if (enrolAll === 0) {
        const n = await counter.count()
        if (enrolFirst === 0 && n > 0) enrolFirst = performance.now()
        if (n >= SUBSCRIBERS) {
          enrolAll = performance.now()
          // diagnosis: what statistics on the positions change (Mailroom never analyzes automation_runs itself)
          if (ANALYZE_AFTER_ENROL && store === "postgres") psql("ANALYZE automation_runs;")
        }
        if (n !== lastCount && poll % 10 === 0) console.log(`  ${((performance.now() - start) / 1000).toFixed(1)} s: ${n} positions, ${status.messages - before.messages} mails`)
        lastCount = n
      } else if (poll % (TRACE ? 10 : 40) === 0) {
        const traced = TRACE ? ` (moved / queued / sent: ${await counter.trace()})` : ""
        console.log(`  ${((now - start) / 1000).toFixed(1)} s: ${status.messages - before.messages} mails${traced}`)
      }
      await sleep(50)
    }
    probing = false
    await probe
    latencies.sort((a, b) => a - b)
    const cpu = [server, ...workers].map((p, i) => cpuSeconds(p.pid) - cpuBefore[i]!)
    const machineAfter = machineCpu()
    const sinkCpu = cpuSeconds(sinkPid) - sinkBefore
    const benchUsage = process.cpuUsage(benchBefore)
    const benchCpu = (benchUsage.user + benchUsage.system) / 1e6
    const done = await sink()
    await sleep(3_000) // nothing more should come: the next step is a day away
    const after = await sink()
    const listed = (JSON.parse((await call(PORT, "GET", `/api/automations/${automation.uuid}/subscribers?per_page=1`)).text) as { meta: { total: number } }).meta.total
    const result: FirstStep = {
      enrolFirstS: (enrolFirst - start) / 1000,
      enrolAllS: (enrolAll - start) / 1000,
      firstMailS: (firstMail - start) / 1000,
      lastMailS: (lastMail - start) / 1000,
      mails: after.messages - before.messages,
      recipients: after.recipients - before.recipients,
      duplicates: after.duplicates,
      extra: after.messages - done.messages,
      listed,
      sinkCpuUsPerMail: ((done.cpuMs - before.cpuMs) * 1000) / (done.messages - before.messages),
      cpu,
      apiP50: percentile(latencies, 50),
      apiMax: latencies[latencies.length - 1] ?? 0,
      apiResets: resets,
      machineBusy: (machineAfter.busy - machineBefore.busy) / ((lastMail - start) / 1000) / cpus().length,
      postgresCpu: machineAfter.postgres - machineBefore.postgres,
      otherCpu: machineAfter.busy - machineBefore.busy - (machineAfter.postgres - machineBefore.postgres) - cpu.reduce((a, b) => a + b, 0) - sinkCpu - benchCpu,
      rss: [server, ...workers].map((p) => peakRssMb(p.pid))
    }
    return result
  } finally {
    counter.close()
    for (const worker of workers) await stopServer(worker)
    await stopServer(server)
  }
}

/** The SQL of SqlAutomationRunRepository.claim, with its parameters written in (for EXPLAIN). */
const claimSql = (store: "sqlite" | "postgres", now: Date) =>
  `UPDATE automation_runs SET lease_owner = 'bench', next_run_at = '${new Date(now.getTime() + 60_000).toISOString()}'
  WHERE id IN (
    SELECT r.id FROM automation_runs r
    WHERE r.state = 'active' AND r.next_run_at <= '${now.toISOString()}'
      AND (SELECT a.status FROM automations a WHERE a.id = r.automation_id) = 'started'
    ORDER BY r.next_run_at, r.id LIMIT 500 ${store === "postgres" ? "FOR UPDATE OF r SKIP LOCKED" : ""}
  ) RETURNING id, run_id, automation_id, subscriber_id, action_uuid, entered_at, arrived_at`

/** Inserts WAITING active positions due a day ahead for the (started) automation, set-based; seconds taken. */
const insertWaiting = (store: "sqlite" | "postgres") => {
  const start = performance.now()
  const due = new Date(Date.now() + 86_400_000).toISOString()
  const at = new Date().toISOString()
  // subscriber ids above the seeded ones: the positions' unique (automation, subscriber) index holds
  const select = (i: string) =>
    `SELECT a.id, 10000000 + ${i}, NULL, a.actions_first, 'active', '${at}', '${at}', '${due}', '${at}'`
  if (store === "sqlite") {
    sqlite((db) => {
      const automation = db.prepare("SELECT id, actions FROM automations WHERE status = 'started'").get() as { id: number; actions: string }
      const action = (JSON.parse(automation.actions) as Array<{ uuid: string }>)[1]!.uuid
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${WAITING})
        INSERT INTO automation_runs (automation_id, subscriber_id, run_id, action_uuid, state, entered_at, arrived_at, next_run_at, updated_at)
        ${select("i").replace("a.id", String(automation.id)).replace("a.actions_first", `'${action}'`)} FROM n`)
    })
  } else {
    psql(`INSERT INTO automation_runs (automation_id, subscriber_id, run_id, action_uuid, state, entered_at, arrived_at, next_run_at, updated_at)
      ${select("i").replace("a.actions_first", "(a.actions::json -> 1 ->> 'uuid')")} FROM automations a, generate_series(1, ${WAITING}) AS i
      WHERE a.status = 'started';`)
  }
  return (performance.now() - start) / 1000
}

/** Times the repository's claim TICKS times in this process; median and p95 in ms, and how many it claimed. */
const timeClaims = async (store: "sqlite" | "postgres", databaseUrl: string) => {
  const storage = store === "sqlite" ? SqliteStorage({ filename: SQLITE_FILE }) : PostgresStorage({ url: databaseUrl })
  const runtime = ManagedRuntime.make(storage)
  try {
    const claim = Effect.flatMap(AutomationRunRepository, (runs) => {
      const now = new Date()
      return runs.claim({ now, leaseUntil: new Date(now.getTime() + 60_000), limit: 500, owner: "bench" })
    })
    for (let i = 0; i < 10; i++) await runtime.runPromise(claim) // warm-up: connections, statement cache
    const times: Array<number> = []
    let claimed = 0
    for (let i = 0; i < TICKS; i++) {
      const start = performance.now()
      claimed += (await runtime.runPromise(claim)).length
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    return { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] ?? 0, claimed }
  } finally {
    await runtime.dispose()
  }
}

/** The plan of the claim's SQL. */
const explain = (store: "sqlite" | "postgres") => {
  const sqlText = claimSql(store, new Date())
  if (store === "sqlite") {
    return sqlite((db) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all() as Array<{ id: number; parent: number; detail: string }>)
        .map((row) => `${row.parent === 0 ? "" : "  "}${row.detail}`).join("\n")
    )
  }
  return psql(`BEGIN; EXPLAIN (ANALYZE, BUFFERS) ${sqlText}; ROLLBACK;`).trim()
}

/** Counts of positions by state (and how many are due now). */
const positions = (store: "sqlite" | "postgres") => {
  const q = `SELECT count(*) FILTER (WHERE state = 'active') AS active, count(*) FILTER (WHERE state = 'active' AND next_run_at <= '${new Date().toISOString()}') AS due FROM automation_runs`
  if (store === "sqlite") return sqlite((db) => db.prepare(q).get() as { active: number; due: number })
  const [active, due] = psql(`${q};`).trim().split("|").map(Number)
  return { active: active!, due: due! }
}

const analyze = (store: "sqlite" | "postgres") => {
  if (store === "sqlite") sqlite((db) => db.exec("ANALYZE"))
  else psql("VACUUM ANALYZE automation_runs; ANALYZE automations;")
}

const firstRows: Array<string> = []
const tickRows: Array<string> = []
const plans: Array<string> = []
try {
  for (const store of stores()) {
    const smtp = await startSink()
    try {
      const { databaseUrl, list } = await prepare(store)
      const r = await firstStep(store, databaseUrl, list, smtp.pid)
      const fromStart = SUBSCRIBERS / r.lastMailS
      const fromFirst = SUBSCRIBERS / (r.lastMailS - r.firstMailS)
      const row = `| ${store} | ${store === "sqlite" ? "serve (workers inside)" : "serve + 2 workers"} | ${SUBSCRIBERS} | ` +
        `${r.enrolFirstS.toFixed(1)} / ${r.enrolAllS.toFixed(1)} (${(r.enrolAllS - r.enrolFirstS).toFixed(1)}) | ${r.firstMailS.toFixed(1)} | ${r.lastMailS.toFixed(1)} | ` +
        `${fromStart.toFixed(0)} | ${fromFirst.toFixed(0)} | ${r.mails} / ${r.recipients} / ${r.duplicates} / ${r.extra} | ${r.listed} | ${r.apiP50.toFixed(0)} / ${r.apiMax.toFixed(0)}${r.apiResets > 0 ? ` (${r.apiResets} resets)` : ""} | ` +
        `${r.cpu.map((s) => s.toFixed(1)).join(" / ")}${store === "postgres" ? ` / pg ${r.postgresCpu.toFixed(1)}` : ""} | ${(r.machineBusy * 100).toFixed(0)} % | ${r.otherCpu.toFixed(1)} | ${r.rss.map((mb) => mb.toFixed(0)).join(" / ")} | ${r.sinkCpuUsPerMail.toFixed(0)} |`
      console.log(row)
      firstRows.push(row)
    } finally {
      smtp.kill("SIGTERM")
    }

    if (WAITING === 0) continue
    const inserted = insertWaiting(store)
    const counts = positions(store)
    console.log(`${store}: ${WAITING} waiting positions inserted in ${inserted.toFixed(1)} s; ${counts.active} active, ${counts.due} due`)
    for (const stats of ["as inserted (no ANALYZE since)", "after ANALYZE"] as const) {
      if (stats === "after ANALYZE") analyze(store)
      const t = await timeClaims(store, resetUrl())
      const row = `| ${store} | ${counts.active} | ${counts.due} | ${stats} | ${TICKS} | ${t.p50.toFixed(2)} | ${t.p95.toFixed(2)} | ${t.max.toFixed(2)} | ${t.claimed} |`
      console.log(row)
      tickRows.push(row)
      const plan = explain(store)
      console.log(plan)
      plans.push(`${store}, ${stats}:\n${plan}`)
    }
  }
} finally {
  closeClient()
}

console.log(`\n${machine()}; sink = bench/send/sink.ts in its own process; ~30 KB mail of bench/send/html.ts.`)
console.log("| store | processes | subscribers | enrolment: first / all positions after start, s (span) | first mail after start, s | last mail after start, s | mails/s from start | mails/s from first mail | mails / distinct recipients / duplicates / after the last | positions listed | API ms p50 / max meanwhile | CPU s (server / workers / Postgres) | machine busy | other processes' CPU s | peak RSS MB | sink µs CPU per mail |")
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of firstRows) console.log(row)
console.log("\n| store | active positions | due | statistics | ticks | p50 ms | p95 ms | max ms | claimed |")
console.log("|---|---|---|---|---|---|---|---|---|")
for (const row of tickRows) console.log(row)
console.log("")
for (const plan of plans) console.log(`${plan}\n`)
