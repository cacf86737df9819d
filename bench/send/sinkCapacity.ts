/**
 * The sink's own capacity in the same run as a send benchmark: a bare loop, with no Mailroom in it, pushes ready-made
 * mails of the benchmark's size to the sink over `connections` connections (MAIL, RCPT and BDAT pipelined, one mail
 * in flight per connection, as Mailroom's SMTP client sends them). What it reaches is the most any sender could get
 * out of this sink on this machine; Mailroom's rate is read against it.
 */
import { connect, type Socket } from "node:net"

/** A mail of `size` bytes, headers and a body of plain lines. */
const rawMail = (size: number): Buffer => {
  const head = "From: news@example.com\r\nTo: someone@example.com\r\nSubject: capacity\r\nMIME-Version: 1.0\r\n" +
    "Content-Type: text/html; charset=utf-8\r\n\r\n"
  const line = `${"<p>sink capacity probe</p>".repeat(3)}\r\n`
  return Buffer.from(head + line.repeat(Math.max(1, Math.ceil((size - head.length) / line.length))))
}

/** Sends `count` mails on one connection, each waiting for the previous one's replies; resolves when all are accepted. */
const sendOn = (socket: Socket, mail: Buffer, from: number, count: number) =>
  new Promise<void>((resolve, reject) => {
    let sent = 0
    let replies = ""
    let greeted = false
    const next = () => {
      if (sent === count) return resolve()
      const to = `capacity-${from + sent}@example.com`
      socket.write(`MAIL FROM:<news@example.com>\r\nRCPT TO:<${to}>\r\nBDAT ${mail.length} LAST\r\n`)
      socket.write(mail)
      sent++
    }
    socket.on("error", reject)
    socket.on("data", (chunk: Buffer) => {
      replies += chunk.toString("latin1")
      if (!greeted) {
        if (!replies.includes("\r\n")) return
        greeted = true
        replies = ""
        socket.write("EHLO capacity.test\r\n")
        return
      }
      // EHLO's multi-line answer ends with "250 "; each mail gets three replies (MAIL, RCPT, BDAT)
      const lines = replies.split("\r\n")
      replies = lines.pop() ?? ""
      for (const line of lines) {
        if (line.startsWith("250 ") && line.includes("queued")) next()
        else if (line.startsWith("250 SIZE")) next()
        else if (/^[45]/.test(line)) reject(new Error(`sink refused: ${line}`))
      }
    })
  })

/** Mails per second the sink accepts from a bare loop: `count` mails of `size` bytes over `connections` connections. */
export const sinkCapacity = async (port: number, options: { readonly count: number; readonly size: number; readonly connections: number }) => {
  const mail = rawMail(options.size)
  const per = Math.ceil(options.count / options.connections)
  const sockets = Array.from({ length: options.connections }, () => connect(port, "127.0.0.1"))
  const start = performance.now()
  await Promise.all(sockets.map((socket, i) => sendOn(socket, mail, i * per, per)))
  const seconds = (performance.now() - start) / 1000
  for (const socket of sockets) socket.end("QUIT\r\n")
  return (per * options.connections) / seconds
}
