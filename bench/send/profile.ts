/**
 * The delivery engine in one process, for profiling: a SQLite file seeded with `--count` subscribers, the real
 * SmtpMailer, and the bench sink in its own process; times CampaignDelivery.drain() from `send` to the last record.
 * Usage: node --cpu-prof --import tsx bench/send/profile.ts [--count 20000] [--linger ms] [--concurrency n] [--dkim rsa|ed25519]
 */
import { type ChildProcess, spawn } from "node:child_process"
import { generateKeyPairSync } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import {
  AppUrl,
  CampaignActions,
  CampaignDelivery,
  CampaignInput,
  Campaigns,
  DeliveryOptions,
  EmailListInput,
  EmailLists,
  Mailroom
} from "@mailroom/core"
import { CsvParseReader } from "@mailroom/csv"
import { type DkimKey, SmtpMailer } from "@mailroom/smtp"
import { SqliteStorage } from "@mailroom/sqlite"
import { Duration, Effect, Layer, Schema } from "effect"
import { NodeHmac } from "../../packages/server/src/nodeHmac.js"
import { arg } from "../lib.js"
import { seedSqlite } from "../subscribers/seed.js"
import { html } from "./html.js"

const COUNT = arg("count", 20_000)

/** `--dkim rsa` or `--dkim ed25519`: a key made for the run; none without. */
const dkimKeys = (): Array<DkimKey> => {
  const i = process.argv.indexOf("--dkim")
  const kind = i > 0 ? process.argv[i + 1] : undefined
  if (kind !== "rsa" && kind !== "ed25519") return []
  const { privateKey } = kind === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519")
  return [{ domain: "example.com", selector: "bench", privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }]
}
const SMTP_PORT = 2725
const filename = join(mkdtempSync(join(tmpdir(), "mailroom-send-profile-")), "db.sqlite")

const sink: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/send/sink.ts", String(SMTP_PORT), "2726"], {
  stdio: ["ignore", "ignore", "inherit"]
})
await sleep(1500)

const App = Mailroom.pipe(
  Layer.provideMerge(Layer.mergeAll(
    SqliteStorage({ filename }),
    SmtpMailer({ url: `smtp://127.0.0.1:${SMTP_PORT}`, maxConnections: arg("connections", 8), dkim: dkimKeys() }),
    CsvParseReader
  )),
  Layer.provide(Layer.succeed(AppUrl, "https://mail.example.com")),
  Layer.provide(NodeHmac),
  Layer.provide(Layer.effect(DeliveryOptions, Effect.map(DeliveryOptions, (defaults) => ({
    ...defaults,
    recordLinger: Duration.millis(arg("linger", Duration.toMillis(defaults.recordLinger))),
    concurrency: arg("concurrency", defaults.concurrency)
  }))))
)

await Effect.runPromise(Effect.gen(function*() {
  const list = yield* (yield* EmailLists).create(yield* Schema.decodeUnknown(EmailListInput)({ name: "Bench", default_from_email: "news@example.com" }))
  seedSqlite(filename, list.id, COUNT)
  const campaign = yield* (yield* Campaigns).create(yield* Schema.decodeUnknown(CampaignInput)({
    name: "Bench campaign",
    email_list_uuid: list.uuid,
    subject: "News for {{ subscriber.first_name }}",
    html: html()
  }))
  yield* (yield* CampaignActions).send(campaign.campaign.uuid)
  const start = performance.now()
  const cpu = process.cpuUsage()
  const timer = setInterval(() => {
    const u = process.memoryUsage()
    if (process.argv.includes("--memory")) {
      console.log(`rss ${Math.round(u.rss / 1e6)} heapUsed ${Math.round(u.heapUsed / 1e6)} heapTotal ${Math.round(u.heapTotal / 1e6)} external ${Math.round(u.external / 1e6)} arrayBuffers ${Math.round(u.arrayBuffers / 1e6)}`)
    }
  }, 1000)
  const handled = yield* (yield* CampaignDelivery).drain()
  clearInterval(timer)
  const seconds = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  const sunk = (yield* Effect.promise(() => fetch("http://127.0.0.1:2726/").then((r) => r.json()))) as { messages: number; bytes: number; cpuMs: number }
  const memory = process.memoryUsage()
  console.log(`${handled} steps' sends in ${seconds.toFixed(1)} s: ${Math.round(COUNT * 0.9 / seconds)} mails/s; ` +
    `CPU ${Math.round((used.user + used.system) / (COUNT * 0.9))} µs/mail, ${Math.round(used.system / (COUNT * 0.9))} in the kernel (sink: ${sunk.messages} mails, ` +
    `${Math.round(sunk.bytes / sunk.messages)} B each, ${Math.round((sunk.cpuMs * 1000) / sunk.messages)} µs/mail); ` +
    `rss ${Math.round(memory.rss / 1e6)} MB, heap ${Math.round(memory.heapUsed / 1e6)} MB`)
}).pipe(Effect.provide(App), Effect.orDie, Effect.ensuring(Effect.sync(() => sink.kill()))))
