/**
 * A loopback SMTP sink for benchmarks, in its own process so it does not share the sender's event loop. It accepts
 * every message, counts messages and distinct recipients, and answers `GET /` on the status port with JSON.
 * Usage: tsx bench/send/sink.ts <smtpPort> <statusPort>
 */
import { createServer } from "node:http"
import { SMTPServer } from "smtp-server"

const [smtpPort, statusPort] = process.argv.slice(2).map(Number)
let messages = 0
let bytes = 0
const recipients = new Map<string, number>()

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  disableReverseLookup: true,
  logger: false,
  size: 50 * 1024 * 1024,
  onData(stream, session, callback) {
    stream.on("data", (chunk: Buffer) => (bytes += chunk.length))
    stream.on("end", () => {
      messages++
      for (const to of session.envelope.rcptTo) recipients.set(to.address, (recipients.get(to.address) ?? 0) + 1)
      callback()
    })
  }
})
smtp.listen(smtpPort, "127.0.0.1")

createServer((_, res) => {
  let duplicates = 0
  for (const count of recipients.values()) if (count > 1) duplicates++
  res.setHeader("content-type", "application/json")
  res.end(JSON.stringify({ messages, bytes, recipients: recipients.size, duplicates }))
}).listen(statusPort, "127.0.0.1", () => console.log("sink ready"))
