/**
 * The loopback SMTP sink of bench/send, in its own process so that it does not share the sender's event loop. It
 * accepts every message, counts messages, bytes, distinct recipients and duplicates, and answers `GET /` on the
 * status port with JSON. By default it is a minimal pipelining SMTP server that finds the end of DATA with a native
 * search (~20 µs of CPU per 40 KB mail), standing in for a real MTA, which would run on its own machine; `smtp-server`
 * (the JavaScript server the tests use) costs ~530 µs per mail on the same 2 cores, more than Mailroom itself.
 * `GET /?probe=<address>` answers when a `probe…` address first arrived (`{"at": ms}` or null); `GET /?nth=<n>` when the
 * n-th message (counting from 1) arrived (`{"at": ms}` or null); `GET /?forget` forgets the recipients seen so far,
 * so that duplicates count afresh (a campaign sent again to the same list).
 * Usage: tsx bench/send/sink.ts <smtpPort> <statusPort> [lean|smtp-server]
 */
import { createServer } from "node:http"
import { createServer as createTcpServer, type Socket } from "node:net"
import { SMTPServer } from "smtp-server"

const [smtpPort, statusPort] = process.argv.slice(2, 4).map(Number)
const kind = process.argv[4] ?? "lean"
let messages = 0
let bytes = 0
const recipients = new Map<string, number>()
/** When each `probe…` address first arrived (ms since the epoch): latency probes of bench/transactional. */
const probes = new Map<string, number>()
/** When each message arrived (ms since the epoch), in order: where a campaign's first and last mails fell. */
const arrivals: Array<number> = []
const received = (to: ReadonlyArray<string>, size: number) => {
  messages++
  arrivals.push(Date.now())
  bytes += size
  for (const address of to) {
    recipients.set(address, (recipients.get(address) ?? 0) + 1)
    if (address.startsWith("probe") && !probes.has(address)) probes.set(address, Date.now())
  }
}

const END_OF_DATA = Buffer.from("\r\n.\r\n")
const EHLO = "250-sink.test\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n" +
  (process.env.SINK_CHUNKING === "0" ? "" : "250-CHUNKING\r\n") + "250 SIZE 52428800\r\n"

/** One connection of the lean server: commands line by line (pipelined), DATA up to CRLF.CRLF, BDAT by its size. */
const serve = (socket: Socket) => {
  let pending: Buffer = Buffer.alloc(0)
  let inData = false
  let scanned = 0
  let chunk = -1
  let chunked = 0
  let last = false
  let to: Array<string> = []
  socket.setNoDelay(true)
  socket.on("error", () => undefined)
  socket.write("220 sink.test ESMTP\r\n")
  socket.on("data", (data: Buffer) => {
    pending = pending.length === 0 ? data : Buffer.concat([pending, data])
    let replies = ""
    for (;;) {
      if (chunk >= 0) {
        if (pending.length < chunk) break
        pending = pending.subarray(chunk)
        chunked += chunk
        chunk = -1
        if (last) {
          received(to, chunked)
          to = []
          chunked = 0
        }
        replies += last ? "250 2.0.0 queued\r\n" : "250 2.0.0 chunk ok\r\n"
        continue
      }
      if (inData) {
        const end = pending.length >= 3 && scanned === 0 && pending.subarray(0, 3).toString("latin1") === ".\r\n"
          ? -2
          : pending.indexOf(END_OF_DATA, Math.max(0, scanned - 4))
        if (end === -1) {
          scanned = pending.length
          break
        }
        const size = end === -2 ? 0 : end + 2
        received(to, size)
        pending = pending.subarray(end === -2 ? 3 : end + 5)
        inData = false
        scanned = 0
        to = []
        replies += "250 2.0.0 queued\r\n"
        continue
      }
      const newline = pending.indexOf("\r\n")
      if (newline < 0) break
      const line = pending.subarray(0, newline).toString("latin1")
      pending = pending.subarray(newline + 2)
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === "EHLO") replies += EHLO
      else if (verb === "RCPT") {
        to.push(/<([^>]*)>/.exec(line)?.[1] ?? "")
        replies += "250 2.1.5 ok\r\n"
      } else if (verb === "DATA") {
        inData = true
        replies += "354 go ahead\r\n"
      } else if (verb === "BDAT") {
        const [, size, flag] = line.split(" ")
        chunk = Number(size)
        last = flag?.toUpperCase() === "LAST"
      } else if (verb === "QUIT") {
        socket.end(replies + "221 bye\r\n")
        return
      } else if (verb === "MAIL" || verb === "RSET" || verb === "HELO" || verb === "NOOP") {
        if (verb !== "NOOP") {
          to = []
          chunked = 0
        }
        replies += "250 ok\r\n"
      } else replies += "500 unknown command\r\n"
    }
    if (replies !== "") socket.write(replies)
  })
}

if (kind === "lean") {
  createTcpServer(serve).listen(smtpPort, "127.0.0.1")
} else {
  new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      let size = 0
      stream.on("data", (chunk: Buffer) => (size += chunk.length))
      stream.on("end", () => {
        received(session.envelope.rcptTo.map((r) => r.address), size)
        callback()
      })
    }
  }).listen(smtpPort, "127.0.0.1")
}

createServer((req, res) => {
  res.setHeader("content-type", "application/json")
  const query = new URL(req.url ?? "/", "http://sink").searchParams
  const probe = query.get("probe")
  if (probe !== null) return void res.end(JSON.stringify({ at: probes.get(probe) ?? null }))
  const nth = query.get("nth")
  if (query.has("forget")) {
    recipients.clear()
    return void res.end("{}")
  }
  if (nth !== null) return void res.end(JSON.stringify({ at: arrivals[Number(nth) - 1] ?? null }))
  let duplicates = 0
  for (const count of recipients.values()) if (count > 1) duplicates++
  res.end(JSON.stringify({ messages, bytes, recipients: recipients.size, duplicates, cpuMs: process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000 }))
}).listen(statusPort, "127.0.0.1", () => console.log(`sink (${kind}) ready`))
