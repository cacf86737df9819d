/**
 * A fast RFC 5322 / MIME writer for the mails Mailroom sends: a multipart/alternative message with a text/plain and
 * a text/html part, to one recipient (campaigns) or to To, Cc and Bcc recipients with inline parts and attachments
 * around it (transactional mails, internal/MimeAttachments.ts). nodemailer's composer (streams, a node tree,
 * per-header encoding passes) plus the former regex text fallback cost ~2.4 ms of CPU for a personalised 35 KB
 * newsletter; this writes it in ~0.2 ms, text fallback included (bench/smtp/run.ts).
 *
 * - Bodies: the HTML part is always base64 (native, byte-exact, no line-length limits; lines of 76 characters). The
 *   text part is 7bit when it is ASCII in lines of at most 998 octets, else quoted-printable when mostly ASCII (an
 *   accented name in an English mail), else base64: readable where possible, and fewer bytes to send.
 * - Headers: display names and the subject become RFC 2047 encoded-words (`=?UTF-8?B?…?=`, at most 75 chars each)
 *   when they hold anything but printable ASCII; long headers are folded at spaces, address lists after commas
 *   (internal/MimeHeaders.ts, internal/MimeAddresses.ts). Every line ends in CRLF, and no line is longer than 998
 *   octets.
 * - Recipients: To lists `to` and `moreTo`, Cc the `cc` addresses; Bcc addresses are in no header. The envelope holds
 *   every recipient once (compared without regard to case).
 * - Custom headers (`message.headers`) follow the standard ones; a `Message-ID` or `Date` there replaces the generated
 *   one; `From`, `To`, `Cc`, `Bcc`, `Reply-To`, `Subject` and the MIME headers cannot be overridden (they are skipped).
 * - Anything that cannot be written correctly (a line break or `<>` in an address, a header name that is not
 *   printable ASCII, a header line that cannot be folded under 998 octets, an attachment that is not base64 or has an
 *   invalid content type or id) throws a {@link MimeError}: retrying cannot fix it.
 */
import { randomUUID } from "node:crypto"
import { htmlToText, MailError, type MailMessage } from "@mailroom/core"
import { Effect } from "effect"
import { addressHeader, addressListHeader, checkedEmail, envelopeRecipients, mailboxes } from "./MimeAddresses.js"
import { fileParts, type MultipartType, nestParts } from "./MimeAttachments.js"
import { base64Lines, textBody } from "./MimeBodies.js"
import { MimeError } from "./MimeError.js"
import { CRLF, oneLine, PRINTABLE, unstructured } from "./MimeHeaders.js"

export { encodedWords } from "./MimeHeaders.js"
export { MimeError } from "./MimeError.js"

/** A rendered message: the bytes to send and the SMTP envelope. */
export interface RawMail {
  readonly raw: Buffer
  /** The bytes already have every line-initial dot doubled (RFC 5321 §4.5.2), ready to follow DATA as they are. */
  readonly dotStuffed?: boolean
  /** The bytes come from `messageBuffers` and go back there once sent. */
  readonly pooled?: boolean
  readonly messageId: string
  readonly envelope: { readonly from: string; readonly to: ReadonlyArray<string> }
}

/** Fixed parts for tests: the date, Message-ID and multipart boundary are otherwise generated. */
export interface MimeOptions {
  readonly date?: Date
  readonly messageId?: string
  readonly boundary?: string
}

/** The fields of a message outside its bodies. */
export type MailHeaders = Pick<
  MailMessage,
  "from" | "to" | "moreTo" | "cc" | "bcc" | "replyTo" | "subject" | "headers" | "envelopeFrom"
>

/** The top of a message: its headers up to the multipart Content-Type with `boundary`, and the blank line. */
export interface MailHead {
  readonly head: string
  /** False when an address has a non-ASCII local part: the head is then UTF-8 (SMTPUTF8), else plain ASCII. */
  readonly ascii: boolean
  readonly messageId: string
  readonly envelope: { readonly from: string; readonly to: ReadonlyArray<string> }
}

/**
 * Writes the headers of a multipart message of `type` (alternative unless said otherwise) with `boundary` (see the
 * module comment for the rules).
 */
export const mailHead = (
  message: MailHeaders,
  boundary: string,
  options: MimeOptions = {},
  type: MultipartType = "alternative"
): MailHead => {
  const from = checkedEmail(message.from.email, "From")
  const to = checkedEmail(message.to.email, "To")
  const moreTo = mailboxes(message.moreTo, "To")
  const cc = mailboxes(message.cc, "Cc")
  const bcc = mailboxes(message.bcc, "Bcc")
  const domain = from.slice(from.lastIndexOf("@") + 1) || "localhost"
  let messageId = options.messageId ?? `<${randomUUID()}@${domain}>`
  let date = options.date === undefined ? currentDate() : formatDate(options.date)

  let custom = ""
  if (message.headers) {
    for (const [name, value] of Object.entries(message.headers)) {
      if (typeof value !== "string") continue
      if (!HEADER_NAME.test(name)) throw new MimeError(`Invalid header name: ${JSON.stringify(name)}`)
      const lower = name.toLowerCase()
      if (lower === "message-id") messageId = ownValue(name, value)
      else if (lower === "date") date = ownValue(name, value)
      else if (!RESERVED.has(lower)) custom += unstructured(name, value)
    }
  }
  const toList = [{ address: message.to, email: to }, ...moreTo]
  const head = addressHeader("From", message.from, from) +
    addressListHeader("To", toList) +
    (cc.length === 0 ? "" : addressListHeader("Cc", cc)) +
    (message.replyTo ? addressHeader("Reply-To", message.replyTo, checkedEmail(message.replyTo.email, "Reply-To")) : "") +
    unstructured("Subject", message.subject) +
    `Date: ${date}${CRLF}Message-ID: ${messageId}${CRLF}MIME-Version: 1.0${CRLF}` +
    custom +
    `Content-Type: multipart/${type};${CRLF} boundary="${boundary}"${CRLF}${CRLF}`
  const sender = message.envelopeFrom ? checkedEmail(message.envelopeFrom, "envelope sender") : from
  const lists = [toList, cc, bcc]
  // all of it is ASCII, unless an address has a non-ASCII local part (SMTPUTF8)
  const ascii = PRINTABLE.test(from) && PRINTABLE.test(sender) &&
    (!message.replyTo || PRINTABLE.test(message.replyTo.email)) &&
    lists.every((list) => list.every(({ email }) => PRINTABLE.test(email)))
  const recipients = toList.length + cc.length + bcc.length === 1 ? [to] : envelopeRecipients(lists)
  return { head, ascii, messageId, envelope: { from: sender, to: recipients } }
}

/** The headers of one body part. */
export const partHeaders = (boundary: string, type: "plain" | "html", encoding: string): string =>
  `--${boundary}${CRLF}Content-Type: text/${type}; charset=utf-8${CRLF}Content-Transfer-Encoding: ${encoding}${CRLF}${CRLF}`

/** A new multipart boundary (`=_` cannot occur in base64 or quoted-printable text). */
export const newBoundary = (): string => `=_mr_${randomUUID()}`

/** Builds the raw message (see the module comment for the rules). */
export const buildMime = (message: MailMessage, options: MimeOptions = {}): RawMail => {
  const text = textBody(message.text ?? htmlToText(message.html))
  const files = fileParts(message.attachments ?? [])
  let boundary = options.boundary ?? newBoundary()
  // a base64 body cannot hold "=", only a 7bit text part could (practically never) contain the boundary (or the
  // boundaries of the other levels, which all start with it)
  while (text.encoding === "7bit" && text.body.includes(boundary)) boundary = newBoundary()
  const body = nestParts(boundary, files, (alternative) =>
    partHeaders(alternative, "plain", text.encoding) + text.body +
    partHeaders(alternative, "html", "base64") + base64Lines(message.html) + `--${alternative}--${CRLF}`)
  const { ascii, envelope, head, messageId } = mailHead(message, body.boundary, options, body.type)
  const raw = head + body.body
  return { raw: Buffer.from(raw, ascii ? "latin1" : "utf8"), messageId, envelope }
}

/**
 * Runs a MIME writer. A message that cannot be written (say, a line break in an address) is a permanent MailError,
 * as a 5xx answer would be; an unexpected exception stays a defect.
 */
export const writeMime = (write: () => RawMail): Effect.Effect<RawMail, MailError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(write())
    } catch (error) {
      return error instanceof MimeError
        ? Effect.fail(new MailError({ message: `Invalid message: ${error.message}`, failure: "permanent" }))
        : Effect.die(error)
    }
  })

// ---------------------------------------------------------------------------------------------------------------
// Custom headers

/** ftext of RFC 5322: printable ASCII except the colon. */
const HEADER_NAME = /^[!-9;-~]+$/
const RESERVED = new Set(["from", "to", "cc", "bcc", "reply-to", "subject", "mime-version", "content-type", "content-transfer-encoding"])

/** A caller's own Message-ID or Date: one line of printable ASCII that fits. */
const ownValue = (name: string, value: string): string => {
  const flat = oneLine(value).trim()
  if (!PRINTABLE.test(flat) || flat === "" || flat.length > 900) throw new MimeError(`Invalid ${name} header: ${JSON.stringify(value)}`)
  return flat
}

// ---------------------------------------------------------------------------------------------------------------
// Date

const formatDate = (date: Date): string => date.toUTCString().replace(/GMT$/, "+0000")

let dateSecond = -1
let dateText = ""

/** The RFC 5322 date of now, formatted once per second. */
const currentDate = (): string => {
  const now = Date.now()
  const second = Math.floor(now / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateText = formatDate(new Date(now))
  }
  return dateText
}
