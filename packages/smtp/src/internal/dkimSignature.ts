/**
 * The DKIM-Signature headers of one message (RFC 6376 relaxed/relaxed; RSA-SHA256, Ed25519-SHA256 per RFC 8463),
 * computed synchronously: the worker threads of Dkim.ts run it. The body is canonicalised with one native regex pass
 * only when it has whitespace to fold (generated bodies rarely do) and hashed; the signed header fields are
 * canonicalised from the message's own head.
 */
import { createHash, type KeyObject, sign } from "node:crypto"

/** A parsed signing key. */
export interface SigningKey {
  readonly domain: string
  readonly selector: string
  readonly type: "rsa" | "ed25519"
  readonly key: KeyObject
}

/** The headers every signature covers when the mail has them. */
export const DKIM_SIGNED_HEADERS = [
  "From", "To", "Cc", "Reply-To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type",
  "List-Unsubscribe", "List-Unsubscribe-Post", "List-Id", "Feedback-ID", "X-Mailroom-Send"
]

const BODY_WSP = /[ \t]+\r\n|[ \t]{2,}|\t/g
const FOLDABLE = /[ \t]{2}|\t| \r\n/
const HEAD_END = Buffer.from("\r\n\r\n")
const CRLF = Buffer.from("\r\n")

/**
 * The hash of the body canonicalised (relaxed): no whitespace at line ends, runs of it as one space, no empty lines
 * at the end, one CRLF after the last line. A body with no such whitespace is hashed as it is.
 */
const bodyHash = (raw: Buffer, start: number): string => {
  const hash = createHash("sha256")
  const text = raw.toString("latin1", start)
  const compact = FOLDABLE.test(text) ? text.replace(BODY_WSP, (run) => (run.endsWith("\n") ? "\r\n" : " ")) : text
  let end = compact.length
  while (end >= 2 && compact.charCodeAt(end - 1) === 10 && compact.charCodeAt(end - 2) === 13) end -= 2
  if (compact === text) {
    if (end > 0) hash.update(raw.subarray(start, start + end)).update(CRLF)
  } else if (end > 0) hash.update(`${compact.slice(0, end)}\r\n`, "latin1")
  return hash.digest("base64")
}

/** A header value canonicalised (relaxed): unfolded, runs of whitespace as one space, trimmed. */
const relaxedValue = (value: string): string => value.replace(/\r\n/g, "").replace(/[ \t]+/g, " ").trim()

/** The message's header fields by lower-cased name (the last of a name wins). */
const headerFields = (head: string): Map<string, string> => {
  const fields = new Map<string, string>()
  for (const field of head.split(/\r\n(?![ \t])/)) {
    const colon = field.indexOf(":")
    if (colon > 0) fields.set(field.slice(0, colon).trim().toLowerCase(), field.slice(colon + 1))
  }
  return fields
}

/** Folds a header line at spaces, and the b= value in pieces, to lines of at most 76 characters. */
const fold = (line: string): string => {
  const [before, signature = ""] = line.split(/(?<=; b=)/)
  let out = ""
  let width = 0
  for (const word of before!.split(" ")) {
    if (width > 0 && width + word.length + 1 > 76) {
      out += "\r\n "
      width = 1
    } else if (width > 0) {
      out += " "
      width++
    }
    out += word
    width += word.length
  }
  for (let at = 0; at < signature.length; at += 72) out += `\r\n ${signature.slice(at, at + 72)}`
  return `${out}\r\n`
}

/** One DKIM-Signature header per key for the message `raw`, signed at `time` (seconds). */
export const signatureHeaders = (raw: Buffer, keys: ReadonlyArray<SigningKey>, time: number): string => {
  const split = raw.indexOf(HEAD_END)
  const head = raw.toString("latin1", 0, split < 0 ? raw.length : split + 2)
  const bh = bodyHash(raw, split < 0 ? raw.length : split + 4)
  const fields = headerFields(head)
  const names = DKIM_SIGNED_HEADERS.filter((name) => fields.has(name.toLowerCase()))
  const signed = names.map((name) => `${name.toLowerCase()}:${relaxedValue(fields.get(name.toLowerCase())!)}\r\n`).join("")
  return keys.map(({ domain, key, selector, type }) => {
    const tags = `v=1; a=${type}-sha256; c=relaxed/relaxed; d=${domain}; s=${selector}; t=${time}; h=${names.join(": ")}; bh=${bh}; b=`
    // what a verifier hashes: the signed fields, then this header with an empty b= (its folding does not count)
    const data = Buffer.from(`${signed}dkim-signature:${relaxedValue(tags)}`, "latin1")
    const signature = type === "rsa" ? sign("sha256", data, key) : sign(null, createHash("sha256").update(data).digest(), key)
    return fold(`DKIM-Signature: ${tags}${signature.toString("base64")}`)
  }).join("")
}
