/**
 * The two body parts of a Mailroom mail: the text part as 7bit (ASCII in lines of at most 998 octets, line breaks
 * made CRLF), else quoted-printable or base64; the HTML part as base64 in lines of 76. Measured on a 16 KB text and a
 * 22 KB HTML body (bench/smtp/run.ts): native checks (`Buffer.byteLength`, `includes`) instead of a regular expression
 * over the text, and string slices for the base64 lines, which beat per-line Buffer calls or byte loops here.
 */

const CRLF = "\r\n"
const MAX_LINE = 998
const SCRATCH_MAX = 4 * 1024 * 1024

/** An encoded body part: its transfer encoding and its text (ASCII, lines ending in CRLF). */
export interface Body {
  readonly encoding: "7bit" | "quoted-printable" | "base64"
  readonly body: string
}

let scratch = Buffer.allocUnsafeSlow(64 * 1024)

/** Base64 of the UTF-8 bytes in lines of 76 characters, each ending in CRLF (an empty value is one empty line). */
export const base64Lines = (value: string): string => {
  // the UTF-8 bytes go to a reused buffer (at most 3 bytes per UTF-16 unit): no allocation per message
  const need = value.length * 3
  if (scratch.length < need && need <= SCRATCH_MAX) scratch = Buffer.allocUnsafeSlow(need)
  const b64 = need <= scratch.length
    ? scratch.toString("base64", 0, scratch.write(value, 0, "utf8"))
    : Buffer.from(value, "utf8").toString("base64")
  if (b64 === "") return CRLF
  let out = ""
  for (let i = 0; i < b64.length; i += 76) out += b64.slice(i, i + 76) + CRLF
  return out
}

/** Some line (without its line break) is longer than 998 characters. */
const hasLongLine = (text: string): boolean => {
  let start = 0
  for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
    if (end - start > MAX_LINE) return true
    start = end + 1
  }
  return text.length - start > MAX_LINE
}

/**
 * The text part: 7bit when it is ASCII without NUL in lines of at most 998 octets, else quoted-printable when that is
 * smaller than base64 (mostly-ASCII text with a few accented names), else base64.
 */
export const textBody = (text: string): Body => {
  // CRLF line breaks are read as LF; a CR alone cannot be written as 7bit
  const lf = text.includes("\r") && !/\r(?!\n)/.test(text) ? text.replace(/\r\n/g, "\n") : text
  if (Buffer.byteLength(lf) === lf.length && !lf.includes("\0") && !lf.includes("\r") && !hasLongLine(lf)) {
    // the CRLF before the next boundary belongs to the boundary, so a final line break of the text needs its own
    return { encoding: "7bit", body: lf.replace(/\n/g, CRLF) + CRLF }
  }
  const qp = quotedPrintable(text)
  return qp.length <= text.length * 1.5 ? { encoding: "quoted-printable", body: qp } : { encoding: "base64", body: base64Lines(text) }
}

// "=", controls other than tab and line feed, and non-ASCII characters (whole code points) are written as =XX
const QP_ESCAPE = /[^\t\n\x20-\x3c\x3e-\x7e]+/gu
const HEX = Array.from({ length: 256 }, (_, byte) => `=${byte.toString(16).toUpperCase().padStart(2, "0")}`)

const qpEscape = (run: string): string => {
  if (run === "=") return "=3D"
  let out = ""
  for (const byte of Buffer.from(run, "utf8")) out += HEX[byte]
  return out
}

/**
 * Quoted-printable (RFC 2045 §6.7) of UTF-8 text: hard line breaks are CRLF, lines are soft-broken (`=`) at 76
 * characters without splitting an `=XX`, and a space or tab before a line break is escaped.
 */
export const quotedPrintable = (text: string): string => {
  const escaped = text.replace(/\r\n/g, "\n").replace(QP_ESCAPE, qpEscape)
  let out = ""
  let start = 0
  while (start <= escaped.length) {
    let end = escaped.indexOf("\n", start)
    if (end < 0) end = escaped.length
    let line = escaped.slice(start, end)
    const last = line.charCodeAt(line.length - 1)
    if (last === 0x20 || last === 0x09) line = line.slice(0, -1) + (last === 0x20 ? "=20" : "=09")
    let from = 0
    while (line.length - from > 76) {
      let cut = from + 75
      if (line.charCodeAt(cut - 1) === 0x3d) cut -= 1
      else if (line.charCodeAt(cut - 2) === 0x3d) cut -= 2
      out += line.slice(from, cut) + "=" + CRLF
      from = cut
    }
    out += (from === 0 ? line : line.slice(from)) + CRLF
    start = end + 1
  }
  return out
}

// printable ASCII but "=", with no space at either end: written as it is when short enough
const QP_PLAIN = /^[!-<>-~](?:[ !-<>-~]*[!-<>-~])?$/

/**
 * Quoted-printable of a piece of a body that other pieces follow: like `quotedPrintable`, but the last line ends in
 * a soft line break (nothing when the piece ends with a line break), so the next piece starts a fresh line and
 * nothing is added to the text. Every line, soft break included, stays within 76 characters.
 */
export const qpPiece = (text: string): string => {
  if (text === "") return ""
  if (QP_PLAIN.test(text)) {
    // nothing to escape and no line break (a URL, a name): only cut into lines
    if (text.length <= 75) return text + "=" + CRLF
    let out = ""
    for (let i = 0; i < text.length; i += 75) out += text.slice(i, i + 75) + "=" + CRLF
    return out
  }
  const escaped = text.replace(/\r\n/g, "\n").replace(QP_ESCAPE, qpEscape)
  let out = ""
  let start = 0
  for (;;) {
    const newline = escaped.indexOf("\n", start)
    const last = newline < 0
    let line = escaped.slice(start, last ? escaped.length : newline)
    const end = line.charCodeAt(line.length - 1)
    if (!last && (end === 0x20 || end === 0x09)) line = line.slice(0, -1) + (end === 0x20 ? "=20" : "=09")
    // a full line takes 75 characters and its soft break; the last one keeps room for its own soft break
    let from = 0
    while (line.length - from > (last ? 75 : 76)) {
      let cut = from + 75
      if (line.charCodeAt(cut - 1) === 0x3d) cut -= 1
      else if (line.charCodeAt(cut - 2) === 0x3d) cut -= 2
      out += line.slice(from, cut) + "=" + CRLF
      from = cut
    }
    const rest = from === 0 ? line : line.slice(from)
    if (last) return rest === "" ? out : out + rest + "=" + CRLF
    out += rest + CRLF
    start = newline + 1
  }
}
