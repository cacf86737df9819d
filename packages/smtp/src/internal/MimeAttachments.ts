/**
 * The files of a message as MIME parts, and how they nest around its multipart/alternative bodies (RFC 2046,
 * RFC 2387 multipart/related, RFC 2183 Content-Disposition):
 *
 *   multipart/mixed ─┬─ multipart/related ─┬─ multipart/alternative (text, html)
 *                    │                     └─ inline parts (a Content-ID, shown by the html as `cid:<id>`)
 *                    └─ attachments
 *
 * A level without parts is left out (no inline parts: mixed holds the alternative part itself; no attachments:
 * related is the top). The content is the caller's base64, checked and written as it is in lines of 76 characters.
 * File names are quoted strings when they are printable ASCII and short, else RFC 2231 extended parameters
 * (`filename*=utf-8''…`, split into `filename*0*`, `filename*1*`, … sections of whole characters to keep lines short),
 * both for `filename` (Content-Disposition) and `name` (Content-Type, which older clients read).
 */
import type { MailAttachment } from "@mailroom/core"
import { MimeError } from "./MimeError.js"
import { CRLF, ENCODED_WORD_LIKE, FOLD_AT, oneLine, PRINTABLE } from "./MimeHeaders.js"

/** The multipart type at the top of a message. */
export type MultipartType = "alternative" | "related" | "mixed"

/** The files of a message as body parts (headers, blank line, content; without their delimiter lines). */
export interface FileParts {
  /** Parts with a Content-ID, shown by the html. */
  readonly inline: ReadonlyArray<string>
  /** Parts offered as attachments. */
  readonly attached: ReadonlyArray<string>
}

/** Writes each file of a message as a body part; throws a MimeError for an invalid content type, content id or content. */
export const fileParts = (attachments: ReadonlyArray<MailAttachment>): FileParts => {
  const inline: Array<string> = []
  const attached: Array<string> = []
  for (const attachment of attachments) {
    const contentId = attachment.contentId == null || attachment.contentId === "" ? null : checkedContentId(attachment.contentId)
    ;(contentId === null ? attached : inline).push(filePart(attachment, contentId))
  }
  return { inline, attached }
}

/** A message's body: its top-level multipart type, that level's boundary, and everything after the head. */
export interface MultipartBody {
  readonly type: MultipartType
  readonly boundary: string
  readonly body: string
}

/**
 * Nests the alternative bodies (written by `alternative` with the boundary it is given, closing delimiter included)
 * and the files. With files, each level's boundary is `boundary` with `_a`, `_r` or `_m`: none is the start of another.
 */
export const nestParts = (boundary: string, files: FileParts, alternative: (boundary: string) => string): MultipartBody => {
  if (files.inline.length === 0 && files.attached.length === 0) return { type: "alternative", boundary, body: alternative(boundary) }
  let level: MultipartBody = { type: "alternative", boundary: `${boundary}_a`, body: alternative(`${boundary}_a`) }
  if (files.inline.length > 0) level = around("related", `${boundary}_r`, level, files.inline)
  if (files.attached.length > 0) level = around("mixed", `${boundary}_m`, level, files.attached)
  return level
}

/** A multipart level of `type` holding the level below as its first part, then `parts`. */
const around = (type: MultipartType, boundary: string, below: MultipartBody, parts: ReadonlyArray<string>): MultipartBody => {
  let body = `--${boundary}${CRLF}Content-Type: multipart/${below.type};${CRLF} boundary="${below.boundary}"${CRLF}${CRLF}${below.body}`
  for (const part of parts) body += `--${boundary}${CRLF}${part}`
  return { type, boundary, body: `${body}--${boundary}--${CRLF}` }
}

/** One file: Content-Type with its name, base64, the Content-ID of an inline part, Content-Disposition with the file name. */
const filePart = (attachment: MailAttachment, contentId: string | null): string => {
  const name = oneLine(attachment.name).trim()
  const [type, ...typeParameters] = checkedContentType(attachment.contentType)
  const nameParameters = name === "" ? [] : parameter("name", name)
  return header(`Content-Type: ${type}`, [...typeParameters, ...nameParameters]) +
    `Content-Transfer-Encoding: base64${CRLF}` +
    (contentId === null ? "" : `Content-ID: <${contentId}>${CRLF}`) +
    header(`Content-Disposition: ${contentId === null ? "attachment" : "inline"}`, name === "" ? [] : parameter("filename", name)) +
    CRLF + base64Content(attachment.content, name)
}

/** A header with parameters, each on a line of its own. */
const header = (start: string, parameters: ReadonlyArray<string>): string => {
  let out = start
  for (const parameter of parameters) out += `;${CRLF} ${parameter}`
  return out + CRLF
}

/** An RFC 2045 token: printable ASCII but spaces and tspecials. */
const TOKEN = "[!#$%&'*+\\-.^_`{|}~0-9A-Za-z]+"
const CONTENT_TYPE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})\\s*((?:;\\s*${TOKEN}\\s*=\\s*${TOKEN}\\s*)*);?\\s*$`)
const TYPE_PARAMETER = new RegExp(`(${TOKEN})\\s*=\\s*(${TOKEN})`, "g")

/**
 * A content type `type/subtype` with optional `; attribute=value` parameters of tokens (no quotes), as the type and
 * `attribute=value` strings; a `name` parameter is left out (the file's name is written instead). A composite type
 * (multipart, message) cannot be sent as base64 (RFC 2046 §5) and is refused.
 */
const checkedContentType = (contentType: string): ReadonlyArray<string> => {
  const match = contentType.length > 255 ? null : CONTENT_TYPE.exec(contentType)
  const type = match?.[1]?.toLowerCase()
  if (match === null || type === undefined || type === "multipart" || type === "message") {
    throw new MimeError(`Invalid attachment content type: ${JSON.stringify(contentType)}`)
  }
  const parameters = [...match[3]!.matchAll(TYPE_PARAMETER)]
    .filter((parameter) => parameter[1]!.toLowerCase() !== "name")
    .map((parameter) => `${parameter[1]}=${parameter[2]}`)
  return [`${type}/${match[2]!.toLowerCase()}`, ...parameters]
}

/** A content id without its surrounding `<>`: printable ASCII without spaces or angle brackets, at most 255 characters. */
const checkedContentId = (contentId: string): string => {
  const bare = contentId.startsWith("<") && contentId.endsWith(">") ? contentId.slice(1, -1) : contentId
  if (!/^[\x21-\x3b\x3d\x3f-\x7e]{1,255}$/.test(bare)) throw new MimeError(`Invalid attachment content id: ${JSON.stringify(contentId)}`)
  return bare
}

/** RFC 2231 attribute-char: any printable ASCII but space, `*`, `'`, `%` and the tspecials. */
const ATTRIBUTE_CHAR = /^[!#$&+\-.^_`|~0-9A-Za-z]$/

/**
 * A parameter as `attribute="value"` when that is short printable ASCII (and reads as no encoded-word), else as
 * RFC 2231 extended sections; either way its lines (` ` before, `;` after) fit in 78 characters (up to 100 sections).
 */
const parameter = (attribute: string, value: string): ReadonlyArray<string> => {
  if (PRINTABLE.test(value) && !ENCODED_WORD_LIKE.test(value)) {
    const quoted = `${attribute}="${value.replace(/["\\]/g, "\\$&")}"`
    if (quoted.length <= FOLD_AT - 2) return [quoted]
  }
  // room for the text of a section after " ", "*NN*=", "utf-8''" and before ";"
  const room = FOLD_AT - attribute.length - 14
  const sections: Array<string> = []
  let section = ""
  for (const char of value) {
    let encoded = char
    if (!ATTRIBUTE_CHAR.test(char)) {
      encoded = ""
      for (const byte of Buffer.from(char, "utf8")) encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
    }
    if (section.length + encoded.length > room && section !== "") {
      sections.push(section)
      section = ""
    }
    section += encoded
  }
  sections.push(section)
  if (sections.length === 1) return [`${attribute}*=utf-8''${sections[0]}`]
  return sections.map((text, index) => `${attribute}*${index}*=${index === 0 ? "utf-8''" : ""}${text}`)
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Base64 content in lines of 76 characters, each ending in CRLF (an empty file is one empty line): whitespace is
 * removed and missing padding added; anything but base64 throws a MimeError.
 */
const base64Content = (content: string, name: string): string => {
  const compact = /\s/.test(content) ? content.replace(/\s+/g, "") : content
  const rest = compact.length % 4
  if (!BASE64.test(compact) || rest === 1 || (rest !== 0 && compact.endsWith("="))) {
    throw new MimeError(`The content of the attachment ${JSON.stringify(name)} is not base64`)
  }
  const padded = rest === 0 ? compact : compact + "=".repeat(4 - rest)
  if (padded === "") return CRLF
  let out = ""
  for (let i = 0; i < padded.length; i += 76) out += padded.slice(i, i + 76) + CRLF
  return out
}
