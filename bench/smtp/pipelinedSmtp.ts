/**
 * EXPERIMENT, not used by Mailroom: a minimal SMTP client that writes pre-built MIME bytes straight to the socket.
 * It exists to measure what SmtpMailer would gain without nodemailer's transport, whose per-message overhead and
 * per-byte JavaScript dot-stuffing (smtp-connection/data-stream.js) cost ~440 µs per 70 KB mail on the bench box.
 *
 * Per connection: greeting, EHLO, then for each message one pipelined write of MAIL FROM + RCPT TO + DATA
 * (RFC 2920), the message bytes (dot-stuffed with a native search; a message from buildMime is CRLF-only and has
 * no line starting with "." outside a 7bit or quoted-printable text part) and the terminating dot. No TLS, no AUTH,
 * no reconnects: enough for a loopback sink, not for production.
 */
import { connect, type Socket } from "node:net"

/** An SMTP reply that is not the expected 2xx/3xx. */
export class SmtpReplyError extends Error {
  constructor(readonly responseCode: number, readonly response: string) {
    super(`SMTP ${response}`)
  }
}

interface Job {
  readonly from: string
  readonly to: string
  readonly raw: Buffer
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

const DOT_LINE = Buffer.from("\n.")
const END = Buffer.from(".\r\n")
const CRLF_END = Buffer.from("\r\n.\r\n")

/** Doubles a dot at the start of a line (RFC 5321 §4.5.2); a message without one is returned as it is. */
const dotStuff = (raw: Buffer): Buffer =>
  raw.indexOf(DOT_LINE) < 0 && raw[0] !== 0x2e ? raw : Buffer.from(raw.toString("latin1").replace(/^\./gm, ".."), "latin1")

class Connection {
  private readonly socket: Socket
  private buffer = ""
  private lines: Array<string> = []
  private readonly waiting: Array<(code: number, text: string) => void> = []
  busy = true

  constructor(host: string, port: number, private readonly onIdle: (c: Connection) => void, onError: (e: Error) => void) {
    this.socket = connect(port, host)
    this.socket.setNoDelay(true)
    this.socket.setEncoding("latin1")
    this.socket.on("data", (chunk: string) => this.onData(chunk))
    this.socket.on("error", onError)
    this.expect((code) => {
      if (code !== 220) return onError(new Error(`greeting ${code}`))
      this.socket.write("EHLO bench.local\r\n")
      this.expect((ehlo) => (ehlo === 250 ? this.idle() : onError(new Error(`EHLO ${ehlo}`))))
    })
  }

  private idle() {
    this.busy = false
    this.onIdle(this)
  }

  private expect(handler: (code: number, text: string) => void) {
    this.waiting.push(handler)
  }

  private onData(chunk: string) {
    this.buffer += chunk
    let end: number
    while ((end = this.buffer.indexOf("\r\n")) >= 0) {
      const line = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      this.lines.push(line)
      if (line.charCodeAt(3) === 0x2d) continue // "250-…": more lines follow
      const text = this.lines.join("\n")
      this.lines = []
      this.waiting.shift()?.(Number(line.slice(0, 3)), text)
    }
  }

  send(job: Job) {
    this.busy = true
    let failed: SmtpReplyError | undefined
    const check = (ok: number) => (code: number, text: string) => {
      if (code !== ok && failed === undefined) failed = new SmtpReplyError(code, text)
    }
    this.socket.write(`MAIL FROM:<${job.from}>\r\nRCPT TO:<${job.to}>\r\nDATA\r\n`)
    this.expect(check(250))
    this.expect(check(250))
    this.expect((code, text) => {
      if (code !== 354) {
        if (failed === undefined) failed = new SmtpReplyError(code, text)
        this.socket.write("RSET\r\n")
        this.expect(() => {
          job.reject(failed)
          this.idle()
        })
        return
      }
      const raw = dotStuff(job.raw)
      this.socket.cork()
      this.socket.write(raw)
      this.socket.write(raw[raw.length - 1] === 0x0a ? END : CRLF_END)
      this.socket.uncork()
      this.expect((done, doneText) => {
        if (done === 250) job.resolve()
        else job.reject(new SmtpReplyError(done, doneText))
        this.idle()
      })
    })
  }

  close() {
    this.socket.end("QUIT\r\n")
  }
}

/** A fixed pool of connections with one shared queue. */
export class PipelinedSmtpPool {
  private readonly connections: Array<Connection>
  private readonly queue: Array<Job> = []
  private readonly idle: Array<Connection> = []

  constructor(host: string, port: number, size: number) {
    this.connections = Array.from({ length: size }, () =>
      new Connection(host, port, (c) => this.next(c), (error) => {
        for (const job of this.queue.splice(0)) job.reject(error)
      }))
  }

  private next(connection: Connection) {
    const job = this.queue.shift()
    if (job) connection.send(job)
    else this.idle.push(connection)
  }

  send(from: string, to: string, raw: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      const job = { from, to, raw, resolve, reject }
      const connection = this.idle.pop()
      if (connection) connection.send(job)
      else this.queue.push(job)
    })
  }

  close() {
    for (const c of this.connections) c.close()
  }
}
