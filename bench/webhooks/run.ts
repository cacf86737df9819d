/**
 * Webhook benchmark, as `npm start` runs (workers inside the server, default settings), into the loopback SMTP sink
 * of bench/send and a loopback webhook receiver (each in its own process):
 * 1. a campaign to `--campaign` (100,000) subscribers without webhooks: the send rate;
 * 2. the same campaign with a webhook subscribed to `mail.sent`: the send rate, every event delivered (duplicates
 *    counted) and how far deliveries trail the mails;
 * 3. the dispatcher's capacity: with the server stopped, one `mail.sent` event per send of that campaign is added to
 *    the outbox (a backlog, as after an outage of the receiver's side of things); the server is started and the rate
 *    at which the backlog reaches the receiver is measured. Beside it, the receiver's capacity: as many deliveries from
 *    a bare client with no Mailroom in it (bench/webhooks/receiverCapacity.ts), measured while the server is stopped.
 * Usage: npm run bench:webhooks [-- --stores sqlite --campaign 100000]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { WebhookOptions } from "@mailroom/core"
import Database from "better-sqlite3"
import { arg, call, closeClient, machine, PG_URL, resetPostgres, startServer, stopServer, stores } from "../lib.js"
import { html as newsletter } from "../send/html.js"
import { seedPostgres, seedSqlite, statusCounts } from "../subscribers/seed.js"
import { receiverCapacity } from "./receiverCapacity.js"

const CAMPAIGN = arg("campaign", 100_000)
const SMTP_PORT = 2637
const STATUS_PORT = 2638
const RECEIVER_PORT = 2639
const SQLITE_FILE = "./bench/webhooks/data/bench.db"
const PORT = 3991
/** Deliveries in flight at most, as Mailroom's dispatcher sends them by default: its loops times each one's requests. */
const DISPATCH_CONCURRENCY = WebhookOptions.defaultValue().loops * WebhookOptions.defaultValue().concurrency
const env = { SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`, APP_URL: "https://mail.example.com" }

const json = async (url: string, method = "GET") => {
  const text = await (await fetch(url, { method })).text()
  return text === "" ? null : JSON.parse(text)
}
const sink = () => json(`http://127.0.0.1:${STATUS_PORT}/`)
const receiver = (path = "status", method = "GET") => json(`http://127.0.0.1:${RECEIVER_PORT}/${path}`, method)

const spawnTsx = async (script: string, args: ReadonlyArray<string>, ready: () => Promise<unknown>): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: ["ignore", "ignore", "inherit"] })
  for (let i = 0; i < 100; i++) {
    if (await ready().then(() => true, () => false)) return child
    await sleep(100)
  }
  throw new Error(`${script} did not start`)
}

/** Polls until `done` says so; the time it did. */
const until = async (what: string, done: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (await done()) return performance.now()
    await sleep(25)
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A fresh store with a list of CAMPAIGN seeded subscribers; the database URL and the running server. */
const prepare = async (store: "sqlite" | "postgres") => {
  rmSync("bench/webhooks/data", { recursive: true, force: true })
  const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
  let server = await startServer(databaseUrl, PORT, env)
  const list = JSON.parse((await call(PORT, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "news@example.com" }))).text).data
  await stopServer(server)
  if (store === "sqlite") seedSqlite(SQLITE_FILE, list.id, CAMPAIGN)
  else seedPostgres(PG_URL, list.id, CAMPAIGN)
  server = await startServer(databaseUrl, PORT, env)
  return { databaseUrl, list, server }
}

/** Sends a campaign to the list; the mails/s from the send to the sink's last mail, and when that was. */
const sendCampaign = async (list: { readonly uuid: string }) => {
  const campaign = JSON.parse((await call(PORT, "POST", "/api/campaigns", JSON.stringify({
    name: "Bench campaign", email_list_uuid: list.uuid, subject: "News for {{ subscriber.first_name }}", html: newsletter()
  }))).text).data
  const before = (await sink()).messages
  const mails = statusCounts(CAMPAIGN).subscribed
  const start = performance.now()
  await call(PORT, "POST", `/api/campaigns/${campaign.uuid}/send`)
  const end = await until("the campaign", async () => (await sink()).messages >= before + mails, 600_000)
  return { campaign, mails, rate: mails / ((end - start) / 1000), endWall: Date.now() }
}

/** Adds one mail.sent event per sent send to the outbox of the stopped server's store (set-based). */
const backlog = (store: "sqlite" | "postgres") => {
  const statement = `INSERT INTO events (type, created_at, email_list_id, subscriber_id, campaign_id, send_id)
    SELECT 'mail.sent', '2100-01-01T00:00:00.000Z', 1, subscriber_id, campaign_id, id FROM sends WHERE sent_at IS NOT NULL ORDER BY id`
  if (store === "sqlite") {
    const db = new Database(SQLITE_FILE)
    db.exec(statement)
    db.close()
  } else {
    execFileSync("psql", [PG_URL, "-q", "-v", "ON_ERROR_STOP=1", "-c", `SET search_path = bench; ${statement}`], { stdio: ["ignore", "ignore", "inherit"] })
  }
}

const rows: Array<string> = []
const smtp = await spawnTsx("bench/send/sink.ts", [String(SMTP_PORT), String(STATUS_PORT)], sink)
const hooks = await spawnTsx("bench/webhooks/receiver.ts", [String(RECEIVER_PORT)], () => receiver())
try {
  for (const store of stores()) {
    // 1. without webhooks
    let run = await prepare(store)
    const plain = await sendCampaign(run.list).finally(() => stopServer(run.server))

    // 2. with a webhook on mail.sent
    run = await prepare(store)
    await receiver("reset", "POST")
    const hook = await call(PORT, "POST", "/api/webhooks", JSON.stringify({ url: `http://127.0.0.1:${RECEIVER_PORT}/in`, events: ["mail.sent"] }))
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`)
    const hooked = await sendCampaign(run.list)
    await until("every mail.sent delivery", async () => (await receiver()).distinct >= hooked.mails, 600_000)
    const live = await receiver()
    await stopServer(run.server)

    // 3. a backlog of as many events, delivered from a standing start, beside what a bare client gets through
    await receiver("reset", "POST")
    const capacity = await receiverCapacity(RECEIVER_PORT, { count: hooked.mails, concurrency: DISPATCH_CONCURRENCY })
    backlog(store)
    await receiver("reset", "POST")
    const started = Date.now()
    const server = await startServer(run.databaseUrl, PORT, env)
    try {
      await until("the backlog", async () => (await receiver()).distinct >= hooked.mails, 600_000)
    } finally {
      await stopServer(server)
    }
    const drained = await receiver()
    const row = `| ${store} | ${hooked.mails} | ${plain.rate.toFixed(0)} | ${hooked.rate.toFixed(0)} (${((hooked.rate / plain.rate - 1) * 100).toFixed(1)}%) | ` +
      `${live.distinct} / ${live.duplicates} | ${(live.lastAt - hooked.endWall).toFixed(0)} | ` +
      `${(drained.distinct / ((drained.lastAt - drained.firstAt) / 1000)).toFixed(0)} | ${((drained.lastAt - started) / 1000).toFixed(1)} | ${drained.duplicates} | ${capacity.toFixed(0)} |`
    console.log(row)
    rows.push(row)
  }
} finally {
  smtp.kill("SIGTERM")
  hooks.kill("SIGTERM")
  closeClient()
}

console.log(`\n${machine()}; \`serve\` with its default settings (workers inside), loopback SMTP sink and webhook receiver in their own processes; ` +
  `the receiver's capacity is as many deliveries from a bare node:http client, ${DISPATCH_CONCURRENCY} in flight, with no Mailroom (bench/webhooks/receiverCapacity.ts).`)
console.log("| store | mails | campaign mails/s without webhooks | with a mail.sent webhook (change) | events delivered / duplicates | last delivery after the last mail, ms | backlog deliveries/s | backlog of that many from server start, s | backlog duplicates | receiver's capacity, deliveries/s |")
console.log("|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
