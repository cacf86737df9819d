/**
 * One SMTP client connection (RFC 5321) that sends pre-built messages: greeting, EHLO (HELO as a fallback),
 * STARTTLS when offered (RFC 3207), AUTH PLAIN or LOGIN (RFC 4954), then one mail transaction per message
 * (internal/SmtpTransaction.ts: MAIL FROM + RCPT TO + DATA in one write with PIPELINING, or BDAT with CHUNKING).
 * It exists because nodemailer's transport spends ~450 µs of CPU per 70 KB message (a per-byte JavaScript
 * dot-stuffing stream), which alone caps a core near 2,000 mails/s (bench/HISTORY.md, SMTP mailer).
 */
import { isIP, type Socket } from "node:net"
import { connect as tlsConnect } from "node:tls"
import type { SmtpSettings } from "./SmtpSettings.js"
import { sendMail, type SmtpSession } from "./SmtpTransaction.js"
import { networkError, openSocket, refused, type Reply, SmtpError, type Waiter } from "./SmtpWire.js"

export { dotStuff, SmtpError } from "./SmtpWire.js"

/** A connection past its handshake, ready to send one message at a time. */
export class SmtpConnection implements SmtpSession {
  private socket!: Socket
  private buffered = ""
  private lines: Array<string> = []
  private readonly waiters: Array<Waiter> = []
  private offered = new Map<string, string>()
  private failure: SmtpError | null = null
  private closing = false
  private notified = false
  private encrypted: boolean
  /** What the socket's idle timeout is now and what it waits for (the greeting, or any other reply). */
  private timeout = { ms: 0, waitingFor: "" }
  /** Called once when the connection can no longer be used. */
  onClosed: () => void = () => undefined

  private constructor(socket: Socket, private readonly settings: SmtpSettings) {
    this.encrypted = settings.secure
    this.attach(socket)
    this.expectWithin(settings.greetingTimeoutMs, "greeting")
  }

  /** Connects, reads the greeting, says EHLO, upgrades to TLS and authenticates as the settings ask. */
  static async open(settings: SmtpSettings): Promise<SmtpConnection> {
    const connection = new SmtpConnection(await openSocket(settings), settings)
    try {
      await connection.handshake()
      return connection
    } catch (cause) {
      // a refusal before any message (greeting, login, TLS) is about this server, never the recipient: not permanent
      const error = cause instanceof SmtpError ? new SmtpError(cause.message, cause.code, false) : networkError(cause as Error)
      connection.destroy(error)
      throw error
    }
  }

  /** Neither failed nor closing. */
  get usable(): boolean {
    return this.failure === null && !this.closing
  }

  /**
   * Sends one message to its recipients (all or none of them); rejects with an SmtpError when any step is refused or
   * the connection fails. `dotStuffed` says the bytes have their line-initial dots doubled already.
   */
  send(from: string, to: ReadonlyArray<string>, raw: Buffer, dotStuffed = false): Promise<void> {
    return sendMail(this, from, to, raw, dotStuffed)
  }

  /** The EHLO keywords the server offered (upper-case), with their parameters. */
  get features(): ReadonlyMap<string, string> {
    return this.offered
  }

  /** The server takes a message in one BDAT chunk (RFC 3030 CHUNKING, with PIPELINING): no dot-stuffing, no 354 wait. */
  get chunking(): boolean {
    return this.offered.has("CHUNKING") && this.offered.has("PIPELINING")
  }

  /** Says QUIT and closes the connection. */
  quit(): void {
    if (!this.usable) return
    this.closing = true
    this.socket.end("QUIT\r\n")
    this.notifyClosed()
  }

  /** Closes the connection at once, failing whatever waits for a reply. */
  destroy(error: SmtpError): void {
    this.fail(error)
    this.socket.destroy()
  }

  private async handshake() {
    const greeting = await this.read()
    if (greeting.code !== 220) throw refused("greeting", greeting)
    this.expectWithin(this.settings.socketTimeoutMs, "answer")
    await this.hello()
    if (!this.encrypted && !this.settings.ignoreTLS && this.features.has("STARTTLS")) {
      const ready = await this.command("STARTTLS")
      if (ready.code !== 220) throw refused("STARTTLS", ready)
      await this.upgrade()
      await this.hello()
    }
    if (this.settings.requireTLS && !this.encrypted) {
      throw new SmtpError("The server offers no STARTTLS, and the URL requires TLS", null, false)
    }
    if (this.settings.user !== null) await this.authenticate(this.settings.user, this.settings.pass ?? "")
  }

  private async hello() {
    const ehlo = await this.command(`EHLO ${this.settings.clientName}`)
    if (ehlo.code === 250) {
      this.offered = new Map(ehlo.text.split("\n").slice(1).map((line) => {
        const [keyword = "", ...rest] = line.slice(4).trim().split(/\s+/)
        return [keyword.toUpperCase(), rest.join(" ")] as const
      }))
      return
    }
    const helo = await this.command(`HELO ${this.settings.clientName}`)
    if (helo.code !== 250) throw refused("HELO", helo)
    this.offered = new Map()
  }

  private async authenticate(user: string, pass: string) {
    const methods = (this.features.get("AUTH") ?? "").toUpperCase().split(/\s+/)
    if (methods.includes("PLAIN") || !methods.includes("LOGIN")) {
      const done = await this.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`, "utf8").toString("base64")}`)
      if (done.code !== 235) throw refused("AUTH PLAIN", done)
      return
    }
    for (const step of [null, user, pass]) {
      const reply = await this.command(step === null ? "AUTH LOGIN" : Buffer.from(step, "utf8").toString("base64"))
      if (reply.code === 235) return
      if (reply.code !== 334) throw refused("AUTH LOGIN", reply)
    }
    throw new SmtpError("SMTP AUTH LOGIN was not accepted", null, false)
  }

  /** Wraps the plain socket in TLS after the server's STARTTLS go-ahead. */
  private upgrade(): Promise<void> {
    const plain = this.socket
    plain.removeAllListeners("data").removeAllListeners("error").removeAllListeners("close").removeAllListeners("timeout")
    const servername = isIP(this.settings.host) === 0 ? this.settings.host : undefined
    return new Promise((resolve, reject) => {
      const secure = tlsConnect({ socket: plain, rejectUnauthorized: this.settings.rejectUnauthorized, ...(servername ? { servername } : {}) })
      secure.once("secureConnect", () => {
        secure.removeListener("error", reject)
        this.encrypted = true
        this.attach(secure)
        this.expectWithin(this.settings.socketTimeoutMs, "answer")
        resolve()
      })
      secure.once("error", (error) => reject(networkError(error)))
    })
  }

  private attach(socket: Socket) {
    this.socket = socket
    socket.setNoDelay(true)
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => this.receive(chunk))
    socket.on("error", (error) => this.fail(networkError(error)))
    socket.on("close", () => this.fail(new SmtpError("The SMTP server closed the connection", null, false)))
    socket.on("timeout", () => {
      if (this.waiters.length === 0) return this.quit()
      const { ms, waitingFor } = this.timeout
      this.destroy(new SmtpError(`No ${waitingFor} from the SMTP server within ${ms} ms`, null, false))
    })
  }

  private expectWithin(ms: number, waitingFor: string) {
    this.timeout = { ms, waitingFor }
    this.socket.setTimeout(ms)
  }

  private receive(chunk: string) {
    this.buffered += chunk
    for (let end = this.buffered.indexOf("\n"); end >= 0; end = this.buffered.indexOf("\n")) {
      const line = this.buffered.slice(0, end).replace(/\r$/, "")
      this.buffered = this.buffered.slice(end + 1)
      this.lines.push(line)
      if (line.charCodeAt(3) === 0x2d) continue
      const reply = { code: Number(line.slice(0, 3)) || 0, text: this.lines.join("\n") }
      this.lines = []
      const waiter = this.waiters.shift()
      if (reply.code === 421) {
        this.closing = true
        this.notifyClosed()
      }
      if (waiter !== undefined) waiter.resolve(reply)
    }
  }

  private fail(error: SmtpError) {
    if (this.failure !== null) return
    this.failure = error
    for (const waiter of this.waiters.splice(0)) waiter.reject(error)
    this.notifyClosed()
  }

  private notifyClosed() {
    if (this.notified) return
    this.notified = true
    this.onClosed()
  }

  /** The next reply; `afterData` marks failures as possibly delivered (the message bytes were written). */
  read(afterData = false): Promise<Reply> {
    if (this.failure !== null) {
      const { message, code, permanent } = this.failure
      return Promise.reject(new SmtpError(message, code, permanent, afterData))
    }
    return new Promise((resolve, reject) =>
      this.waiters.push({
        resolve,
        reject: (error) => reject(afterData ? new SmtpError(error.message, error.code, error.permanent, true) : error)
      }))
  }

  /** Writes the pieces together (corked: one TCP write where they fit). */
  write(...pieces: ReadonlyArray<string | Buffer>): void {
    if (pieces.length === 1) {
      this.socket.write(pieces[0]!)
      return
    }
    this.socket.cork()
    for (const piece of pieces) this.socket.write(piece)
    this.socket.uncork()
  }

  /** Writes a command line and resolves with its reply. */
  command(line: string): Promise<Reply> {
    const reply = this.read()
    this.write(`${line}\r\n`)
    return reply
  }

  /** Says RSET, or QUIT when that is not answered with 250. */
  async reset(): Promise<void> {
    const reply = await this.command("RSET").catch(() => null)
    if (reply?.code !== 250) this.quit()
  }
}
