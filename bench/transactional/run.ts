/**
 * Transactional benchmark, as `npm start` runs (workers inside the server, default settings), into the loopback SMTP
 * sink of bench/send (its own process):
 * 1. throughput: `--clients` (16) concurrent clients POST /transactional-mails/send with a stored template for
 *    `--seconds`; the accepted rate and API latency, then the delivered rate (first POST to the sink's last mail);
 * 2. priority: while a campaign to `--campaign` (100,000) subscribers is sending, one transactional mail every 200 ms;
 *    the latency from the API's answer to the sink's 250, and the campaign's rate meanwhile.
 * Usage: npm run bench:transactional [-- --stores sqlite --seconds 10 --clients 16 --campaign 100000 --probes 40]
 */
import { type ChildProcess, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { arg, bareHttpLimit, call, closeClient, machine, PG_URL, peakRssMb, resetPostgres, startServer, stopServer, stores } from "../lib.js"
import { html as newsletter } from "../send/html.js"
import { seedPostgres, seedSqlite } from "../subscribers/seed.js"

const SECONDS = arg("seconds", 10)
const CLIENTS = arg("clients", 16)
const CAMPAIGN = arg("campaign", 100_000)
const PROBES = arg("probes", 40)
const SMTP_PORT = 2627
const STATUS_PORT = 2628
const SQLITE_FILE = "./bench/transactional/data/bench.db"

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
const sink = async (query = "") => JSON.parse(await (await fetch(`http://127.0.0.1:${STATUS_PORT}/${query}`)).text())

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

/** Waits until the sink has got `count` messages (or `timeoutMs` passed); when the last one arrived. */
const sinkReaches = async (count: number, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if ((await sink()).messages >= count) return performance.now()
    await sleep(20)
  }
  throw new Error(`the sink got ${(await sink()).messages} of ${count} mails in ${timeoutMs} ms`)
}

const env = { SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`, APP_URL: "https://mail.example.com" }
const TEMPLATE = {
  name: "Password reset",
  subject: "Reset your password, {{ name }}",
  html: `<html><body><p>Hello {{ name }},</p><p>Someone asked to reset the password of {{ email }}.</p>` +
    `<p><a href="https://shop.example.com/reset?token={{ token }}">Choose a new password</a></p>` +
    `<p>The link works for one hour. If you did not ask, ignore this mail.</p></body></html>`
}
const sendBody = (to: string, i: number) =>
  JSON.stringify({ mail_name: TEMPLATE.name, from: "Shop <shop@example.com>", to, replacements: { name: `User ${i}`, email: to, token: `t${i}x${i * 7}` } })

const bare = await bareHttpLimit({ seconds: SECONDS, concurrency: CLIENTS })
const throughputRows: Array<string> = []
const priorityRows: Array<string> = []
for (const store of stores()) {
  const child = await startSink()
  try {
    rmSync("bench/transactional/data", { recursive: true, force: true })
    const databaseUrl = store === "sqlite" ? `sqlite:${SQLITE_FILE}` : resetPostgres()
    const port = 3990
    let server = await startServer(databaseUrl, port, env)
    try {
      const created = await call(port, "POST", "/api/transactional-mails/templates", JSON.stringify(TEMPLATE))
      if (created.status !== 201) throw new Error(`template: ${created.status} ${created.text}`)
      const latencies: Array<number> = []
      let sent = 0
      let errors = 0
      const start = performance.now()
      const end = start + SECONDS * 1000
      await Promise.all(Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < end) {
          const i = sent++
          const at = performance.now()
          const reply = await call(port, "POST", "/api/transactional-mails/send", sendBody(`user${i}@example.com`, i))
          latencies.push(performance.now() - at)
          if (reply.status !== 200) errors++
        }
      }))
      const accepted = performance.now()
      const lastMail = await sinkReaches(sent, 120_000)
      const status = await sink()
      latencies.sort((a, b) => a - b)
      const line = `| ${store} | ${CLIENTS} | ${sent} | ${errors} | ${(sent / ((accepted - start) / 1000)).toFixed(0)} | ` +
        `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 95).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} | ` +
        `${(sent / ((lastMail - start) / 1000)).toFixed(0)} | ${status.duplicates} | ${peakRssMb(server.pid).toFixed(0)} |`
      console.log(line)
      throughputRows.push(line)

      // the priority run: a campaign to CAMPAIGN subscribers is sending while single mails are sent
      const list = JSON.parse((await call(port, "POST", "/api/email-lists", JSON.stringify({ name: "Bench", default_from_email: "news@example.com" }))).text).data
      await stopServer(server)
      if (store === "sqlite") seedSqlite(SQLITE_FILE, list.id, CAMPAIGN)
      else seedPostgres(PG_URL, list.id, CAMPAIGN)
      server = await startServer(databaseUrl, port, env)
      const campaign = JSON.parse((await call(port, "POST", "/api/campaigns", JSON.stringify({
        name: "Bench campaign", email_list_uuid: list.uuid, subject: "News for {{ subscriber.first_name }}", html: newsletter()
      }))).text).data
      const before = (await sink()).messages
      await call(port, "POST", `/api/campaigns/${campaign.uuid}/send`)
      await sinkReaches(before + 5_000, 120_000)
      const campaignStart = { at: performance.now(), messages: (await sink()).messages }
      const probes: Array<number> = []
      for (let i = 0; i < PROBES; i++) {
        const to = `probe${i}-${store}@example.com`
        const reply = await call(port, "POST", "/api/transactional-mails/send", sendBody(to, i))
        if (reply.status !== 200) throw new Error(`probe: ${reply.status} ${reply.text}`)
        const answered = Date.now()
        for (;;) {
          const { at } = await sink(`?probe=${encodeURIComponent(to)}`)
          if (at !== null) {
            probes.push(at - answered)
            break
          }
          await sleep(5)
        }
        await sleep(200)
      }
      const campaignRate = ((await sink()).messages - campaignStart.messages) / ((performance.now() - campaignStart.at) / 1000)
      const stillSending = JSON.parse((await call(port, "GET", `/api/campaigns/${campaign.uuid}`)).text).data.status === "sending"
      probes.sort((a, b) => a - b)
      const row = `| ${store} | ${CAMPAIGN} | ${PROBES} | ${percentile(probes, 50)} / ${percentile(probes, 95)} / ${probes.at(-1)} | ` +
        `${campaignRate.toFixed(0)} | ${stillSending ? "yes" : "no (finished during the probes)"} |`
      console.log(row)
      priorityRows.push(row)
    } finally {
      await stopServer(server)
    }
  } finally {
    child.kill("SIGTERM")
    await sleep(300)
  }
}

console.log(`\n${machine()}; \`serve\` with its default settings (workers inside), loopback sink in its own process.`)
console.log(`The load generator's ceiling, the same ${CLIENTS} clients against a bare node:http server: ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99.toFixed(1)} ms.`)
console.log("| store | clients | mails | errors | accepted/s | API ms p50 / p95 / p99 | delivered/s | duplicates | peak RSS MB |")
console.log("|---|---|---|---|---|---|---|---|---|")
for (const row of throughputRows) console.log(row)
console.log("\n| store | campaign size | probes | accept → sink 250, ms p50 / p95 / max | campaign mails/s meanwhile | campaign still sending |")
console.log("|---|---|---|---|---|---|")
for (const row of priorityRows) console.log(row)
closeClient()
