/**
 * Send benchmark: 100,000 subscribers, a ~30 KB personalised HTML mail with 10 tracked links, into a loopback SMTP
 * sink (its own process). Measures the time from POST send to status `sent` and the peak RSS of each Mailroom process:
 * SQLite with the workers inside the server, and Postgres with 3 `mailroom worker` processes.
 * Usage: npm run bench:send [-- --count 100000 --stores sqlite --dkim none,rsa,ed25519 --rounds 1]; with --dkim each
 * store runs once per signing: unsigned, RSA-2048 and Ed25519 (keys made for the run); with --rounds N the same
 * processes send N campaigns to the list one after the other (the first in processes just started, the others in
 * processes that have sent before), each a row.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { generateKeyPairSync } from "node:crypto"
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
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
import { seedPostgres, seedSqlite } from "../subscribers/seed.js"
import { html } from "./html.js"
import { sinkCapacity } from "./sinkCapacity.js"

const COUNT = arg("count", 100_000)
const WORKERS = arg("workers", 3)
const ROUNDS = arg("rounds", 1)
const SMTP_PORT = 2625
const STATUS_PORT = 2626
/** The mails of a 20,000-subscriber campaign (18,000 eligible): a larger campaign is also timed to its 18,000th mail. */
const SMALL_CAMPAIGN = 18_000
const SQLITE_FILE = "./bench/send/data/bench.db"

/** When the sink received its n-th message (ms since the epoch). */
const arrival = async (nth: number) =>
  (JSON.parse(await (await fetch(`http://127.0.0.1:${STATUS_PORT}/?nth=${nth}`)).text()) as { at: number | null }).at ?? Number.NaN

const sinkStatus = async () =>
  JSON.parse(await (await fetch(`http://127.0.0.1:${STATUS_PORT}/`)).text()) as {
    messages: number
    recipients: number
    duplicates: number
  }

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

const signings = (() => {
  const i = process.argv.indexOf("--dkim")
  return (i > 0 ? (process.argv[i + 1] ?? "") : "none").split(",").filter((s): s is "none" | "rsa" | "ed25519" => ["none", "rsa", "ed25519"].includes(s))
})()
/** The DKIM settings of a signing: a key made for the run. */
const dkimEnv = (signing: "none" | "rsa" | "ed25519"): Record<string, string> => {
  if (signing === "none") return {}
  const { privateKey } = signing === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519")
  return { DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "bench", DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }
}

const rows: Array<string> = []
for (const store of stores()) for (const signing of signings) {
  const sink = await startSink()
  try {
    if (store === "sqlite") rmSync("bench/send/data", { recursive: true, force: true })
    const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
    const port = 3980 + rows.length
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      APP_URL: "https://mail.example.com",
      NODE_OPTIONS: process.env["BENCH_NODE_OPTIONS"] ?? "",
      ...dkimEnv(signing)
    }
    let server = await startServer(databaseUrl, port, { ...env, WORKERS: "false" })
    const created = await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "news@example.com" }))
    const list = JSON.parse(created.text).data as { id: number; uuid: string }
    await stopServer(server)
    if (store === "sqlite") seedSqlite(SQLITE_FILE, list.id, COUNT)
    else seedPostgres(PG_URL, list.id, COUNT)
    const eligible = COUNT - Math.floor(COUNT / 20) - Math.floor((COUNT + 19) / 20)
    server = await startServer(databaseUrl, port, { ...env, WORKERS: store === "sqlite" ? "true" : "false" })
    const workers = store === "sqlite" ? [] : Array.from({ length: WORKERS }, () => startProcess("worker", databaseUrl, env))
    try {
      for (let round = 1; round <= ROUNDS; round++) await sendCampaign(round)
    } finally {
      for (const worker of workers) worker.kill("SIGTERM")
      await stopServer(server)
    }

    /** Sends the round's campaign to the whole list and adds its row. */
    async function sendCampaign(round: number) {
      if (round > 1) await fetch(`http://127.0.0.1:${STATUS_PORT}/?forget`)
      const campaign = JSON.parse((await call(port, "POST", "/api/campaigns", JSON.stringify({
        name: "Bench campaign",
        email_list_uuid: list.uuid,
        subject: "News for {{ subscriber.first_name }}",
        html: html()
      }))).text).data as { uuid: string }
      const capacity = await sinkCapacity(SMTP_PORT, { count: Math.min(COUNT, 20_000), size: 40_000, connections: 8 })
      const before = (await sinkStatus()).messages
      const start = performance.now()
      const startedAt = Date.now()
      await call(port, "POST", `/api/campaigns/${campaign.uuid}/send`)
      let status = "sending"
      while (status !== "sent") {
        await sleep(50)
        status = JSON.parse((await call(port, "GET", `/api/campaigns/${campaign.uuid}`)).text).data.status
      }
      const seconds = (performance.now() - start) / 1000
      const sentSeenAt = Date.now()
      const sunk = await sinkStatus()
      const firstMail = ((await arrival(before + 1)) - startedAt) / 1000
      const afterLast = (sentSeenAt - (await arrival(sunk.messages))) / 1000
      // a 20,000 campaign's mails, timed inside a larger one: the same start-up, so the two rates compare like for like
      const early = eligible >= SMALL_CAMPAIGN ? `${(SMALL_CAMPAIGN / (((await arrival(before + SMALL_CAMPAIGN)) - startedAt) / 1000)).toFixed(0)}` : "-"
      const rss = [server, ...workers].map((p) => peakRssMb(p.pid))
      const line = `| ${store} | ${store === "sqlite" ? "server (1 process)" : `${WORKERS} worker processes`} | ${round} | ${signing} | ${eligible} | ` +
        `${seconds.toFixed(2)} | ${firstMail.toFixed(2)} | ${afterLast.toFixed(2)} | ${(eligible / seconds).toFixed(0)} | ${early} | ${capacity.toFixed(0)} | ${sunk.messages - before} | ${sunk.duplicates} | ` +
        `${rss.map((mb) => mb.toFixed(0)).join(" / ")} |`
      console.log(line)
      rows.push(line)
    }
  } finally {
    sink.kill("SIGTERM")
    await sleep(300)
  }
}

console.log(`\n${machine()}; ${COUNT} subscribers seeded (90 % subscribed), ~30 KB HTML, five Liquid outputs, one {% if %}, 10 personalised tracked links.`)
console.log("The sink's capacity is what a bare loop (no Mailroom) got through it in the same run: 8 connections, 40 KB mails.")
console.log("Seconds run from POST send until the campaign reads `sent` (polled every 50 ms); the first mail's arrival at the sink counts from the POST, the status from the last mail's.")
console.log("Mails/s to the 18,000th mail: from the POST to the sink's 18,000th arrival, the mails of a 20,000-subscriber campaign, so a larger run shows its rate over the same start.")
console.log("Campaign: its number among the campaigns the same processes sent (`--rounds`), 1 in processes just started.")
console.log("| store | workers | campaign | DKIM | mails | seconds | first mail after, s | \`sent\` seen after the last mail, s | mails/s | mails/s to the 18,000th mail | sink capacity mails/s | sink got | duplicates | peak RSS MB (server / workers) |")
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
closeClient()
