/**
 * SmtpMailer throughput: personalised ~30 KB HTML mails with 10 links (name, subject and link tokens differ per
 * recipient, a quarter of the names are non-ASCII) sent through the Mailer port with N sends in flight, into a
 * loopback smtp-server sink running in its own process (bench/smtp/sink.ts). For each configuration it prints
 * msgs/s, the CPU time of sender and sink, the sender's event-loop utilisation and peak RSS of both processes, and
 * checks that the sink got every message and that sampled messages decode back to what was sent.
 *
 * Usage: npx tsx --tsconfig tsconfig.check.json bench/smtp/run.ts
 *          [--count 20000] [--concurrency 50,100,200] [--connections 4,8,16] [--baseline]
 * --baseline also runs, with 100 in flight over 8 connections, the former path (nodemailer composes the MIME from
 * html/text, regex htmlToText) and nodemailer's pooled transport sending pre-built raw messages (its own cost), which
 * is what SmtpMailer's own SMTP client (packages/smtp/src/internal/SmtpConnection.ts) replaced.
 * Profile the sender: node --cpu-prof --import tsx bench/smtp/run.ts --concurrency 100 --connections 8
 */
import { type ChildProcess, fork } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { performance as nodePerformance } from "node:perf_hooks"
import { cpus, loadavg } from "node:os"
import { htmlToText, Mailer, type MailMessage } from "@mailroom/core"
import { SmtpMailer } from "@mailroom/smtp"
import { Context, Effect, Either, Layer } from "effect"
import nodemailer from "nodemailer"
import { buildMime } from "../../packages/smtp/src/internal/mime.js"
import { mimeParts, parseEml } from "../../packages/smtp/test/eml.js"
import { htmlToTextReference } from "../../packages/core/test/htmlToTextReference.js"

const option = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] ?? fallback : fallback
}
const numbers = (text: string) => text.split(",").map(Number)

const eventLoopUtilization = nodePerformance.eventLoopUtilization
const COUNT = Number(option("count", "20000"))
const CONCURRENCY = numbers(option("concurrency", "50,100,200"))
const CONNECTIONS = numbers(option("connections", "4,8,16"))
const BASELINE = process.argv.includes("--baseline")
const SAMPLE_EVERY = 997
const FORMER = "former (nodemailer composes)"
const PREBUILT = "nodemailer raw, pre-built MIME"
const SMTP_MAILER = "SmtpMailer"

// ---------------------------------------------------------------------------------------------------------------
// The mails

const NAMES = ["Ana", "Olivia", "Noah", "José", "Mia", "Liam", "Zoë", "Emma", "Łukasz", "Lucas", "Ava", "李雷"]
const FILLER = Array.from({ length: 150 }, (_, k) =>
  `<p style="font-family:Georgia,serif;color:#333;margin:0 0 12px">Paragraph ${k}: Lorem ipsum dolor sit amet, ` +
  `consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua &amp; more.</p>\n`).join("")
const HEAD = `<!doctype html><html><head><meta charset="utf-8"><title>Weekly news</title>` +
  `<style>body{margin:0;padding:0}a{color:#06c}</style></head><body><table width="100%"><tr><td>`

/** A per-recipient token, as click tracking would put into each link. */
const token = (i: number, link: number) => `${(i * 7919 + link * 104729).toString(36)}.${((i + 1) * 2654435761 % 4294967296).toString(36)}`

const mail = (i: number): MailMessage => {
  const name = NAMES[i % NAMES.length]!
  const email = `subscriber${i}@example.org`
  let links = ""
  for (let k = 0; k < 10; k++) {
    links += `<p><a href="https://mail.example.com/c/${token(i, k)}?u=https%3A%2F%2Fexample.com%2Farticles%2F${k}" ` +
      `style="color:#06c;font-weight:bold">Article ${k + 1}: something worth reading</a></p>\n`
  }
  const html = `${HEAD}<h1>Hello ${name},</h1>\n${links}${FILLER}` +
    `<p>Sent to ${email}. <a href="https://mail.example.com/u/${token(i, 99)}">Unsubscribe</a></p>` +
    `<img src="https://mail.example.com/o/${token(i, 100)}" width="1" height="1" alt=""></td></tr></table></body></html>`
  return {
    from: { email: "news@example.com", name: "Example News" },
    to: { email, name: null },
    replyTo: { email: "support@example.com", name: null },
    subject: `${name}, your weekly news #${i}`,
    html,
    headers: {
      "List-Unsubscribe": `<https://mail.example.com/u/${token(i, 99)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "X-Campaign": "bench"
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sink process

interface SinkStats {
  readonly messages: number
  readonly bytes: number
  readonly cpuMs: number
  readonly peakRssMb: number
  readonly samples: ReadonlyArray<{ readonly from: string; readonly to: ReadonlyArray<string>; readonly raw: string }>
}

const startSink = () =>
  new Promise<{ readonly child: ChildProcess; readonly port: number }>((resolve, reject) => {
    const child = fork("bench/smtp/sink.ts", [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, SINK_SAMPLE_EVERY: String(SAMPLE_EVERY) },
      stdio: ["ignore", "inherit", "inherit", "ipc"]
    })
    child.once("error", reject)
    child.once("message", (m: { type: string; port: number }) => resolve({ child, port: m.port }))
  })

const ask = <A>(child: ChildProcess, type: string) =>
  new Promise<A>((resolve) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return
      child.off("message", onMessage)
      resolve(m as A)
    }
    child.on("message", onMessage)
    child.send({ type })
  })

// ---------------------------------------------------------------------------------------------------------------
// Measuring

const resetPeakRss = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
  } catch {
    // not Linux
  }
}
const peakRssMb = () => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024
  } catch {
    return process.resourceUsage().maxRSS / 1024
  }
}

interface Row {
  readonly label: string
  readonly concurrency: number
  readonly connections: number
  readonly rate: number
  readonly senderCpu: number
  readonly sinkCpu: number
  readonly elu: number
  readonly senderRss: number
  readonly sinkRss: number
  readonly kbPerMail: number
  readonly failures: number
  /** The 1-minute load average at the end: above ~2.5 another process competed for the 2 cores. */
  readonly load: number
}

type Send = (message: MailMessage) => Promise<unknown>

/** Sends `count` mails through `send` with `concurrency` in flight; timing, CPU and the sink's view. */
const measure = async (
  label: string,
  sink: ChildProcess,
  count: number,
  concurrency: number,
  connections: number,
  send: Send
): Promise<Row> => {
  await ask(sink, "reset")
  global.gc?.()
  resetPeakRss()
  const cpu = process.cpuUsage()
  const elu = eventLoopUtilization()
  const start = performance.now()
  let next = 0
  let failures = 0
  let firstError: unknown
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      try {
        await send(mail(i))
      } catch (error) {
        failures++
        firstError ??= error
      }
    }
  }))
  const ms = performance.now() - start
  const used = process.cpuUsage(cpu)
  const loop = eventLoopUtilization(elu)
  const stats = await ask<SinkStats>(sink, "stats")
  if (firstError !== undefined) console.error(`  first failure: ${String(firstError)}`)
  if (stats.messages !== count - failures) console.error(`  the sink counted ${stats.messages} of ${count - failures} sent`)
  if (label !== PREBUILT) for (const sample of stats.samples) verify(sample, label !== FORMER)
  return {
    label,
    concurrency,
    connections,
    rate: count / (ms / 1000),
    senderCpu: (used.user + used.system) / 1000 / ms,
    sinkCpu: stats.cpuMs / ms,
    elu: loop.utilization,
    senderRss: peakRssMb(),
    sinkRss: stats.peakRssMb,
    kbPerMail: stats.bytes / Math.max(1, stats.messages) / 1024,
    failures,
    load: loadavg()[0] ?? 0
  }
}

/** A received message decodes back to what was sent to its recipient (`exact`: byte for byte, else up to line ends). */
const verify = (sample: SinkStats["samples"][number], exact: boolean) => {
  const same = (a: string | undefined, b: string) =>
    exact ? a === b : a?.replace(/\r\n/g, "\n").trim() === b.replace(/\r\n/g, "\n").trim()
  const i = Number(/^subscriber(\d+)@/.exec(sample.to[0] ?? "")?.[1])
  const expected = mail(i)
  const { body, headers } = parseEml(sample.raw)
  const boundary = /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")?.[1] ?? ""
  const parts = mimeParts(body, boundary)
  const problems = [
    headers.get("to") === expected.to.email ? "" : "To",
    same(parts[1]?.body, expected.html) ? "" : "HTML body",
    same(parts[0]?.body.trim(), exact ? htmlToText(expected.html) : htmlToTextReference(expected.html)) ? "" : "text body",
    headers.get("list-unsubscribe") === expected.headers!["List-Unsubscribe"] ? "" : "List-Unsubscribe",
    sample.raw.split("\r\n").every((line) => line.length <= 998) ? "" : "line length"
  ].filter(Boolean)
  if (problems.length > 0) throw new Error(`message to ${sample.to[0]} differs: ${problems.join(", ")}`)
}

// ---------------------------------------------------------------------------------------------------------------

const perMessage = (label: string, n: number, f: (i: number) => unknown) => {
  for (let i = 0; i < 500; i++) f(i)
  const start = performance.now()
  for (let i = 0; i < n; i++) f(i)
  const us = (performance.now() - start) * 1000 / n
  console.log(`${label.padEnd(44)} ${us.toFixed(1).padStart(7)} µs/mail  (${Math.round(1e6 / us).toLocaleString("en")}/s on one core)`)
  return us
}

const main = async () => {
  console.log(`${new Date().toISOString().slice(0, 10)} on ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`)
  const sample = mail(3)
  console.log(`mail: ${Buffer.byteLength(sample.html)} B of HTML (10 tracked links), ${buildMime(sample).raw.length} B as MIME`)
  perMessage("generating the personalised message", 4000, mail)
  perMessage("htmlToText (former regex chain)", 1000, (i) => htmlToTextReference(mail(i).html))
  perMessage("htmlToText (scanner)", 4000, (i) => htmlToText(mail(i).html))
  perMessage("buildMime incl. text fallback + generation", 4000, (i) => buildMime(mail(i)))

  const { child: sink, port } = await startSink()
  const url = `smtp://127.0.0.1:${port}`
  const rows: Array<Row> = []
  try {
    // warm-up (JIT, connections), not reported
    await runConfig(url, sink, Math.min(COUNT, 3000), 100, 8, "warm-up")
    if (BASELINE) {
      const transport = nodemailer.createTransport({ url, pool: true, maxConnections: 8, maxMessages: Infinity })
      const send: Send = (m) =>
        transport.sendMail({
          from: { name: m.from.name ?? "", address: m.from.email },
          to: m.to.email,
          replyTo: m.replyTo?.email,
          subject: m.subject,
          html: m.html,
          text: htmlToTextReference(m.html),
          headers: { ...m.headers }
        })
      await measure(FORMER, sink, 1000, 100, 8, send)
      const row = await measure(FORMER, sink, Math.min(COUNT, 5000), 100, 8, send)
      print(row)
      rows.push(row)
      const prebuilt = Array.from({ length: 2000 }, (_, i) => buildMime(mail(i)).raw)
      let n = 0
      const sendRaw: Send = (m) =>
        transport.sendMail({ envelope: { from: m.from.email, to: [m.to.email] }, raw: prebuilt[n++ % prebuilt.length]! })
      const raw = await measure(PREBUILT, sink, COUNT, 100, 8, sendRaw)
      transport.close()
      print(raw)
      rows.push(raw)
    }
    for (const connections of CONNECTIONS) {
      for (const concurrency of CONCURRENCY) {
        const row = await runConfig(url, sink, COUNT, concurrency, connections, SMTP_MAILER)
        print(row)
        rows.push(row)
      }
    }
  } finally {
    sink.disconnect()
  }
  for (const label of [SMTP_MAILER]) {
    const best = rows.filter((r) => r.label === label).sort((a, b) => b.rate - a.rate)[0]
    if (best) console.log(`best ${label}: ${Math.round(best.rate)} mails/s with ${best.concurrency} in flight over ${best.connections} connections`)
  }
}

/** One configuration through SmtpMailer, built and closed around the run. */
const runConfig = (url: string, sink: ChildProcess, count: number, concurrency: number, connections: number, label: string) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const mailer = yield* Effect.map(Layer.build(SmtpMailer({ url, maxConnections: connections })), Context.get(Mailer))
    const send: Send = (message) => Effect.runPromise(Effect.either(mailer.send(message))).then(Either.getOrThrow)
    return yield* Effect.promise(() => measure(label, sink, count, concurrency, connections, send))
  })))

let header = false
const print = (r: Row) => {
  if (!header) {
    console.log("\nsender                        in flight  conns    mails/s  sender CPU (µs/mail)  loop busy  sink CPU (µs/mail)  sender RSS  sink RSS  KB/mail  failed  load")
    header = true
  }
  console.log(
    `${r.label.padEnd(30)}${String(r.concurrency).padStart(9)}${String(r.connections).padStart(7)}` +
      `${Math.round(r.rate).toLocaleString("en").padStart(11)}` +
      `${`${Math.round(r.senderCpu * 100)}% (${Math.round(r.senderCpu * 1e6 / r.rate)})`.padStart(22)}` +
      `${`${Math.round(r.elu * 100)}%`.padStart(11)}` +
      `${`${Math.round(r.sinkCpu * 100)}% (${Math.round(r.sinkCpu * 1e6 / r.rate)})`.padStart(19)}` +
      `${`${Math.round(r.senderRss)} MB`.padStart(12)}${`${Math.round(r.sinkRss)} MB`.padStart(10)}` +
      `${r.kbPerMail.toFixed(1).padStart(9)}${String(r.failures).padStart(8)}${r.load.toFixed(1).padStart(6)}`
  )
}

await main()
