/**
 * Automation mail benchmark: 100,000 pending sends of one automation mail (a ~30 KB personalised HTML mail with 10
 * tracked links), queued set-based as the automation runner queues them, delivered into a loopback SMTP sink (its own
 * process). Measures the time from the server's first answer until every send is finished (the rate counts the mails
 * sent in that time): SQLite with the workers inside
 * the server, Postgres with 3 `mailroom worker` processes. Usage: npm run bench:automation-mails [-- --count 100000 --stores sqlite]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import Database from "better-sqlite3"
import { arg, call, closeClient, machine, peakRssMb, PG_URL, resetPostgres, startProcess, startServer, stopServer, stores } from "../lib.js"
import { html } from "../send/html.js"
import { sinkCapacity } from "../send/sinkCapacity.js"
import { seedPostgres, seedSqlite, statusCounts } from "../subscribers/seed.js"

const COUNT = arg("count", 100_000)
const WORKERS = arg("workers", 3)
const SMTP_PORT = 2635
const STATUS_PORT = 2636
const SQLITE_FILE = "./bench/automation-mails/data/bench.db"

const sinkStatus = async () =>
  JSON.parse(await (await fetch(`http://127.0.0.1:${STATUS_PORT}/`)).text()) as { messages: number; duplicates: number }

const startSink = async (): Promise<ChildProcess> => {
  const sink = spawn(process.execPath, ["--import", "tsx", "bench/send/sink.ts", String(SMTP_PORT), String(STATUS_PORT)], {
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let i = 0; i < 100; i++) {
    if (await sinkStatus().then(() => true, () => false)) return sink
    await sleep(100)
  }
  throw new Error("sink did not start")
}

/** One pending send of the mail per subscriber of the list (its run id the subscriber's id), in one INSERT … SELECT. */
const queueSql = (mailId: number, listId: number, uuid: string) => `
  INSERT INTO sends (uuid, automation_mail_id, automation_run_id, subscriber_id, email, attempts, open_count, click_count,
                     created_at, updated_at)
  SELECT ${uuid}, ${mailId}, id, id, email, 0, 0, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
  FROM subscribers WHERE email_list_id = ${listId} ON CONFLICT DO NOTHING`

const rows: Array<string> = []
for (const store of stores()) {
  const sink = await startSink()
  try {
    if (store === "sqlite") rmSync("bench/automation-mails/data", { recursive: true, force: true })
    const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
    const port = 3990 + rows.length
    const env = { SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`, APP_URL: "https://mail.example.com" }
    let server = await startServer(databaseUrl, port, { ...env, WORKERS: "false" })
    const list = JSON.parse((await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "news@example.com" }))).text).data
    const mail = JSON.parse((await call(port, "POST", "/api/automation-mails", JSON.stringify({
      name: "Bench automation mail",
      subject: "News for {{ subscriber.first_name }}",
      html: html()
    }))).text).data as { uuid: string }
    await stopServer(server)
    if (store === "sqlite") {
      seedSqlite(SQLITE_FILE, list.id, COUNT)
      const db = new Database(SQLITE_FILE)
      const { id } = db.prepare("SELECT id FROM automation_mails WHERE uuid = ?").get(mail.uuid) as { id: number }
      db.exec(queueSql(id, list.id, "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"))
      db.close()
    } else {
      seedPostgres(PG_URL, list.id, COUNT)
      const script = `SET search_path = bench; ${queueSql(0, list.id, "gen_random_uuid()::text").replace(
        `SELECT gen_random_uuid()::text, 0,`,
        `SELECT gen_random_uuid()::text, (SELECT id FROM automation_mails WHERE uuid = '${mail.uuid}'),`
      )}; VACUUM ANALYZE sends;`
      execFileSync("psql", [PG_URL, "-q", "-v", "ON_ERROR_STOP=1", "-f", "-"], { input: script, stdio: ["pipe", "ignore", "inherit"] })
    }
    const mailed = statusCounts(COUNT).subscribed
    const capacity = await sinkCapacity(SMTP_PORT, { count: 20_000, size: 40_000, connections: 8 })
    const before = (await sinkStatus()).messages
    server = await startServer(databaseUrl, port, { ...env, WORKERS: store === "sqlite" ? "true" : "false" })
    const workers = store === "sqlite" ? [] : Array.from({ length: WORKERS }, () => startProcess("worker", databaseUrl, env))
    // timed from the moment the server answers; mails the workers sent while it started are not counted
    const start = performance.now()
    const early = (await sinkStatus()).messages - before
    try {
      let sent = 0
      while (sent < mailed) {
        await sleep(200)
        sent = Number(JSON.parse((await call(port, "GET", `/api/automation-mails/${mail.uuid}`)).text).data.sent_to_number_of_subscribers)
      }
      const seconds = (performance.now() - start) / 1000
      const sunk = await sinkStatus()
      const rss = [server, ...workers].map((p) => peakRssMb(p.pid))
      const line = `| ${store} | ${store === "sqlite" ? "server (1 process)" : `${WORKERS} worker processes`} | ${COUNT} | ${mailed} | ` +
        `${seconds.toFixed(1)} | ${((mailed - early) / seconds).toFixed(0)} | ${capacity.toFixed(0)} | ${sunk.messages - before} | ${sunk.duplicates} | ` +
        `${rss.map((mb) => mb.toFixed(0)).join(" / ")} |`
      console.log(line)
      rows.push(line)
    } finally {
      for (const worker of workers) worker.kill("SIGTERM")
      await stopServer(server)
    }
  } finally {
    sink.kill("SIGTERM")
    await sleep(300)
  }
}

console.log(`\n${machine()}; ${COUNT} queued sends (90 % to subscribed subscribers, the rest fail as not subscribed), ~30 KB HTML, 10 tracked links.`)
console.log("The sink's capacity is what a bare loop (no Mailroom) got through it in the same run: 8 connections, 40 KB mails.")
console.log("| store | workers | sends | mails | seconds (from the server's first answer) | mails/s (mailed in those seconds) | sink capacity mails/s | sink got | duplicates | peak RSS MB (server / workers) |")
console.log("|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
closeClient()
