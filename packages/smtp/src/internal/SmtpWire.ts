/** The wire-level pieces of the SMTP client: errors, socket opening and dot-stuffing. */
import { connect as netConnect, isIP, type Socket } from "node:net"
import { connect as tlsConnect } from "node:tls"
import type { SmtpSettings } from "./SmtpSettings.js"

/** A refused or failed SMTP exchange. `permanent` for 5xx answers; `maybeDelivered` once the message bytes went out. */
export class SmtpError extends Error {
  override readonly name = "SmtpError"
  constructor(
    message: string,
    readonly code: number | null,
    readonly permanent: boolean,
    readonly maybeDelivered = false,
    /** The enhanced status code of the refusing reply (RFC 3463, e.g. `5.1.1`), when it had one. */
    readonly enhancedCode: string | null = null
  ) {
    super(message)
  }
}

const ENHANCED = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?:\s|$)/

/** One SMTP reply: its code and its lines (joined by LF). */
export interface Reply {
  readonly code: number
  readonly text: string
}

/** Who waits for the next reply. */
export interface Waiter {
  readonly resolve: (reply: Reply) => void
  readonly reject: (error: SmtpError) => void
}

const DOT_AT_LINE_START = Buffer.from("\n.")

/** Doubles every dot that starts a line (RFC 5321 §4.5.2); most messages have none and are returned as they are. */
export const dotStuff = (raw: Buffer): Buffer => {
  if (raw[0] !== 0x2e && raw.indexOf(DOT_AT_LINE_START) < 0) return raw
  const parts: Array<Buffer> = []
  let start = 0
  if (raw[0] === 0x2e) parts.push(Buffer.from("."))
  for (let at = raw.indexOf(DOT_AT_LINE_START); at >= 0; at = raw.indexOf(DOT_AT_LINE_START, at + 2)) {
    parts.push(raw.subarray(start, at + 2), Buffer.from("."))
    start = at + 2
  }
  parts.push(raw.subarray(start))
  return Buffer.concat(parts)
}

/** An error of the socket as an SmtpError (never permanent). */
export const networkError = (error: Error & { code?: string }, maybeDelivered = false) =>
  new SmtpError(error.code !== undefined && !error.message.includes(error.code) ? `${error.message} [${error.code}]` : error.message, null, false, maybeDelivered)

/** A refusing reply at `stage` as an SmtpError (permanent for 5xx). */
export const refused = (stage: string, reply: Reply, maybeDelivered = false) =>
  new SmtpError(`SMTP ${stage} refused: ${reply.text}`, reply.code, reply.code >= 500, maybeDelivered, ENHANCED.exec(reply.text)?.[1] ?? null)

/** Opens a TCP or TLS socket, failing after the connection timeout. */
export const openSocket = (settings: SmtpSettings): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const servername = isIP(settings.host) === 0 ? settings.host : undefined
    const socket = settings.secure
      ? tlsConnect({ host: settings.host, port: settings.port, rejectUnauthorized: settings.rejectUnauthorized, ...(servername ? { servername } : {}) })
      : netConnect({ host: settings.host, port: settings.port })
    const timer = setTimeout(() => socket.destroy(new Error(`Connection to ${settings.host}:${settings.port} timed out`)), settings.connectionTimeoutMs)
    socket.once(settings.secure ? "secureConnect" : "connect", () => {
      clearTimeout(timer)
      socket.removeListener("error", fail)
      resolve(socket)
    })
    const fail = (error: Error) => {
      clearTimeout(timer)
      reject(networkError(error))
    }
    socket.once("error", fail)
  })
