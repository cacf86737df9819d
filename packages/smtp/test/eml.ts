/** Splits a raw RFC 5322 message into unfolded headers (lower-case names, first occurrence) and the body. */
export const parseEml = (raw: string): { readonly headers: ReadonlyMap<string, string>; readonly body: string } => {
  const normalized = raw.replace(/\r\n/g, "\n")
  const split = normalized.indexOf("\n\n")
  if (split < 0) throw new Error("no blank line between headers and body")
  const headers = new Map<string, string>()
  for (const line of normalized.slice(0, split).replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":")
    if (colon <= 0) throw new Error(`malformed header line: ${line}`)
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
  }
  return { headers, body: normalized.slice(split + 2) }
}

/** Undoes quoted-printable (soft line breaks and =XX escapes, read as UTF-8). */
export const decodeQuotedPrintable = (text: string): string => {
  const bytes: Array<number> = []
  const flat = text.replace(/=\r?\n/g, "")
  for (let i = 0; i < flat.length; i++) {
    const hex = flat[i] === "=" ? flat.slice(i + 1, i + 3) : ""
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(flat[i]!, "utf8"))
    }
  }
  return Buffer.from(bytes).toString("utf8")
}

/** The MIME parts of a multipart body, each parsed like a message, with quoted-printable and base64 bodies decoded. */
export const mimeParts = (body: string, boundary: string) =>
  body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parseEml(part.replace(/^\n/, "")))
    .map((part) =>
      part.headers.get("content-transfer-encoding") === "quoted-printable"
        ? { ...part, body: decodeQuotedPrintable(part.body) }
        : part.headers.get("content-transfer-encoding") === "base64"
        ? { ...part, body: Buffer.from(part.body, "base64").toString("utf8") }
        : part
    )

/** Decodes RFC 2047 encoded-words (B and Q, UTF-8); whitespace between two adjacent encoded-words is dropped. */
export const decodeWords = (value: string): string =>
  value
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")))

/** Splits a raw message into its header lines as sent (folded lines kept apart) and checks the line rules. */
export const rawLines = (raw: string): ReadonlyArray<string> => {
  if (/\r(?!\n)|(?<!\r)\n/.test(raw)) throw new Error("a line break that is not CRLF")
  return raw.split("\r\n")
}
