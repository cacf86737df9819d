/**
 * The loopback SMTP sink of bench/smtp/run.ts, in its own process (forked with an IPC channel) so that it does not
 * share the sender's event loop. It accepts every message, counts messages and bytes, and keeps one raw message in
 * `sampleEvery` for the sender to check. Messages over IPC: `{ type: "reset" }` → `{ type: "reset" }` and
 * `{ type: "stats" }` → `{ type: "stats", messages, bytes, cpuMs, peakRssMb, samples }`.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { SMTPServer } from "smtp-server"

const sampleEvery = Number(process.env["SINK_SAMPLE_EVERY"] ?? 1000)
let messages = 0
let bytes = 0
let samples: Array<{ readonly from: string; readonly to: ReadonlyArray<string>; readonly raw: string }> = []
let cpu = process.cpuUsage()

const peakRssMb = (): number => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024
  } catch {
    return process.resourceUsage().maxRSS / 1024
  }
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  disableReverseLookup: true,
  logger: false,
  size: 50 * 1024 * 1024,
  onData(stream, session, callback) {
    const keep = messages % sampleEvery === 0
    const chunks: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      if (keep) chunks.push(chunk)
    })
    stream.on("end", () => {
      if (keep) {
        samples.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8")
        })
      }
      messages++
      callback()
    })
  }
})

process.on("message", (message: { readonly type: string }) => {
  if (message.type === "reset") {
    messages = 0
    bytes = 0
    samples = []
    cpu = process.cpuUsage()
    try {
      writeFileSync("/proc/self/clear_refs", "5") // resets VmHWM, the peak RSS
    } catch {
      // not Linux: the peak stays the process lifetime's
    }
    process.send!({ type: "reset" })
  } else if (message.type === "stats") {
    const used = process.cpuUsage(cpu)
    process.send!({ type: "stats", messages, bytes, cpuMs: (used.user + used.system) / 1000, peakRssMb: peakRssMb(), samples })
  }
})
process.on("disconnect", () => server.close(() => process.exit(0)))

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  const address = server.server.address()
  process.send!({ type: "ready", port: typeof address === "object" && address !== null ? address.port : 0 })
})
