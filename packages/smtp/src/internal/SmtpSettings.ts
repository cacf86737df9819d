import { hostname } from "node:os"

/** Where and how to reach an SMTP server, as read from an `smtp://` or `smtps://` URL. */
export interface SmtpSettings {
  readonly host: string
  readonly port: number
  /** TLS from the first byte (`smtps://`, usually port 465). */
  readonly secure: boolean
  readonly user: string | null
  readonly pass: string | null
  /** Never upgrade with STARTTLS, even when the server offers it (`?ignoreTLS=true`). */
  readonly ignoreTLS: boolean
  /** Refuse to send unless the connection is encrypted (`?requireTLS=true`). */
  readonly requireTLS: boolean
  /** Check the server certificate (`?tls.rejectUnauthorized=false` turns it off, for self-signed test servers). */
  readonly rejectUnauthorized: boolean
  /** The name this client gives in EHLO (`?name=`, default the machine's host name). */
  readonly clientName: string
  readonly connectionTimeoutMs: number
  readonly greetingTimeoutMs: number
  /** Longest wait for a reply, and how long an idle pooled connection stays open. */
  readonly socketTimeoutMs: number
}

const flag = (params: URLSearchParams, ...names: ReadonlyArray<string>): boolean | undefined => {
  for (const name of names) {
    const value = params.get(name)
    if (value !== null) return !/^(false|0|no|off)$/i.test(value)
  }
  return undefined
}

const millis = (params: URLSearchParams, name: string, fallback: number): number => {
  const value = Number(params.get(name))
  return params.has(name) && Number.isFinite(value) && value > 0 ? value : fallback
}

/** A hostname fit for EHLO: letters, digits, dots and dashes, else an address literal. */
const ehloName = (name: string): string => (/^[A-Za-z0-9.-]+$/.test(name) && name.includes(".") ? name : "[127.0.0.1]")

/**
 * Reads `smtp://user:pass@host:port?options` (STARTTLS when the server offers it) or `smtps://…` (implicit TLS).
 * Ports default to 587 and 465. Options: `requireTLS`, `ignoreTLS`, `tls.rejectUnauthorized`, `name`,
 * `connectionTimeout`, `greetingTimeout`, `socketTimeout` (milliseconds). Throws on anything else than such a URL.
 */
export const parseSmtpUrl = (text: string): SmtpSettings => {
  const url = new URL(text)
  const secure = url.protocol === "smtps:"
  if (!secure && url.protocol !== "smtp:") throw new Error("must start with smtp:// or smtps://")
  if (url.hostname === "") throw new Error("names no host (e.g. smtp://user:pass@mail.example.com:587)")
  const params = url.searchParams
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    user: url.username === "" ? null : decodeURIComponent(url.username),
    pass: url.username === "" ? null : decodeURIComponent(url.password),
    ignoreTLS: flag(params, "ignoreTLS") ?? false,
    requireTLS: flag(params, "requireTLS") ?? false,
    rejectUnauthorized: flag(params, "tls.rejectUnauthorized", "rejectUnauthorized") ?? true,
    clientName: params.get("name") ?? ehloName(hostname()),
    connectionTimeoutMs: millis(params, "connectionTimeout", 15_000),
    greetingTimeoutMs: millis(params, "greetingTimeout", 15_000),
    socketTimeoutMs: millis(params, "socketTimeout", 60_000)
  }
}
