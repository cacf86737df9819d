/**
 * A small, strict MIME reader for tests (no MIME parser is installed): a message or part as a tree of entities, with
 * Content-Type and Content-Disposition parameters decoded (quoted strings, RFC 2231 extended values and sections,
 * RFC 2047 words) and leaf bodies decoded to bytes. Delimiter lines must match a boundary exactly, as RFC 2046 says.
 */
import { decodeQuotedPrintable, decodeWords, parseEml } from "./eml.js"

/** A header value split into its value and parameters (names lower-cased). */
export interface HeaderValue {
  readonly value: string
  readonly params: ReadonlyMap<string, string>
}

/** One MIME entity: its headers, content type and disposition, and its parts (multipart) or decoded body. */
export interface MimeNode {
  readonly headers: ReadonlyMap<string, string>
  readonly type: HeaderValue
  readonly disposition: HeaderValue | null
  readonly parts: ReadonlyArray<MimeNode>
  readonly body: Buffer
}

/** Splits `value; a=b; c="d"` at semicolons outside quoted strings. */
const segments = (header: string): Array<string> => {
  const out: Array<string> = []
  let current = ""
  let quoted = false
  for (let i = 0; i < header.length; i++) {
    const char = header[i]!
    if (quoted && char === "\\") {
      current += char + (header[++i] ?? "")
      continue
    }
    if (char === "\"") quoted = !quoted
    if (char === ";" && !quoted) {
      out.push(current.trim())
      current = ""
    } else {
      current += char
    }
  }
  out.push(current.trim())
  return out.filter((segment) => segment !== "")
}

const percentDecoded = (text: string): Buffer => {
  const bytes: Array<number> = []
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "%" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(text[i]!, "utf8"))
    }
  }
  return Buffer.from(bytes)
}

/** Parses a structured header value with parameters, joining RFC 2231 sections and decoding extended values. */
export const headerValue = (header: string): HeaderValue => {
  const [value = "", ...rest] = segments(header)
  const plain = new Map<string, string>()
  const sections = new Map<string, Array<{ index: number; text: string; extended: boolean }>>()
  for (const segment of rest) {
    const equals = segment.indexOf("=")
    if (equals <= 0) throw new Error(`malformed parameter: ${segment}`)
    const key = segment.slice(0, equals).trim().toLowerCase()
    let text = segment.slice(equals + 1).trim()
    if (text.startsWith("\"")) text = text.slice(1, -1).replace(/\\(.)/g, "$1")
    const section = /^([^*]+)\*(?:(\d+)\*?|)$/.exec(key)
    if (section === null) {
      plain.set(key, decodeWords(text))
      continue
    }
    const list = sections.get(section[1]!) ?? []
    list.push({ index: Number(section[2] ?? 0), text, extended: key.endsWith("*") })
    sections.set(section[1]!, list)
  }
  for (const [name, list] of sections) {
    list.sort((a, b) => a.index - b.index)
    if (list.some((entry, i) => entry.index !== i)) throw new Error(`sections of ${name} missing`)
    const first = list[0]!
    const charset = first.extended ? first.text.slice(0, first.text.indexOf("'")) : "utf-8"
    if (charset.toLowerCase() !== "utf-8") throw new Error(`unexpected charset ${charset}`)
    const bytes = list.map((entry, i) => {
      const text = i === 0 && entry.extended ? entry.text.slice(entry.text.indexOf("'", entry.text.indexOf("'") + 1) + 1) : entry.text
      return entry.extended ? percentDecoded(text) : Buffer.from(text, "utf8")
    })
    plain.set(name, Buffer.concat(bytes).toString("utf8"))
  }
  return { value: value.toLowerCase(), params: plain }
}

/** Parses a message (CRLF line breaks) into its tree of entities. */
export const parseMime = (raw: string): MimeNode => {
  if (/\r(?!\n)|(?<!\r)\n/.test(raw)) throw new Error("a line break that is not CRLF")
  const { body, headers } = parseEml(raw)
  const type = headerValue(headers.get("content-type") ?? "text/plain")
  const disposition = headers.has("content-disposition") ? headerValue(headers.get("content-disposition")!) : null
  const boundary = type.params.get("boundary")
  if (type.value.startsWith("multipart/")) {
    if (boundary === undefined) throw new Error("a multipart entity without a boundary")
    const parts: Array<Array<string>> = []
    let closed = false
    for (const line of body.split("\n")) {
      if (closed) continue
      if (line === `--${boundary}`) parts.push([])
      else if (line === `--${boundary}--`) closed = true
      else parts[parts.length - 1]?.push(line)
    }
    if (!closed) throw new Error(`no closing delimiter for ${boundary}`)
    return { headers, type, disposition, parts: parts.map((lines) => parseMime(lines.join("\r\n"))), body: Buffer.alloc(0) }
  }
  const encoding = headers.get("content-transfer-encoding") ?? "7bit"
  const decoded = encoding === "base64"
    ? Buffer.from(body, "base64")
    : encoding === "quoted-printable"
    ? Buffer.from(decodeQuotedPrintable(body), "utf8")
    : Buffer.from(body, "utf8")
  return { headers, type, disposition, parts: [], body: decoded }
}

/** The shape of a tree: each entity's content type, its parts' shapes nested. */
export const shape = (node: MimeNode): unknown => (node.parts.length === 0 ? node.type.value : [node.type.value, node.parts.map(shape)])
