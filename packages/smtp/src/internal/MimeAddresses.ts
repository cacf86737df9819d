/**
 * Address headers (From, To, Cc, Reply-To) and the SMTP envelope: display names as atoms, quoted strings or
 * encoded-words, lists of mailboxes comma-separated and folded after a comma, addresses checked for anything that
 * could break a header or an SMTP command, and internationalised domains in punycode.
 */
import { domainToASCII } from "node:url"
import type { MailAddress } from "@mailroom/core"
import { MimeError } from "./MimeError.js"
import { CRLF, ENCODED_WORD_LIKE, encodedWords, FOLD_AT, oneLine, PRINTABLE } from "./MimeHeaders.js"

/** An address as given, and its addr-spec as checked by {@link checkedEmail}. */
export interface Mailbox {
  readonly address: MailAddress
  readonly email: string
}

/** An addr-spec fit for a header and the envelope: no whitespace, controls, `<>`, `,`, `;` or `"`; IDNs in punycode. */
export const checkedEmail = (email: string, field: string): string => {
  const at = email.lastIndexOf("@")
  if (at <= 0 || at === email.length - 1 || /[\s\x00-\x1f\x7f<>,;"()[\]\\]/.test(email) || email.length > 320) {
    throw new MimeError(`Invalid ${field} address: ${JSON.stringify(email)}`)
  }
  const domain = email.slice(at + 1)
  if (PRINTABLE.test(domain)) return email
  const ascii = domainToASCII(domain)
  if (ascii === "") throw new MimeError(`Invalid ${field} address: ${JSON.stringify(email)}`)
  return `${email.slice(0, at)}@${ascii}`
}

const NONE: ReadonlyArray<Mailbox> = []

/** The checked mailboxes of a list of addresses (`field` names the header in errors). */
export const mailboxes = (addresses: ReadonlyArray<MailAddress> | undefined, field: string): ReadonlyArray<Mailbox> =>
  addresses === undefined || addresses.length === 0
    ? NONE
    : addresses.map((address) => ({ address, email: checkedEmail(address.email, field) }))

/** The envelope recipients of some lists of mailboxes: each address once, compared without regard to case. */
export const envelopeRecipients = (lists: ReadonlyArray<ReadonlyArray<Mailbox>>): Array<string> => {
  const seen = new Set<string>()
  const recipients: Array<string> = []
  for (const list of lists) {
    for (const { email } of list) {
      const key = email.toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      recipients.push(email)
    }
  }
  return recipients
}

/**
 * Address headers repeat from mail to mail of a campaign (From, Reply-To): they are written once and looked up after
 * that. The memory holds at most 2,000 lines and starts over when full.
 */
const written = new Map<string, string>()
const remember = (key: string, write: () => string): string => {
  const known = written.get(key)
  if (known !== undefined) return known
  const line = write()
  if (written.size >= 2_000) written.clear()
  written.set(key, line)
  return line
}

/** An address header of one mailbox: `Header: Name <email>`, or `Header: email` without a name. */
export const addressHeader = (header: string, address: MailAddress, email: string): string =>
  remember(
    `a\0${header}\0${email}\0${address.name ?? ""}`,
    () => `${header}: ${mailbox(address, email, header.length + 2)}${CRLF}`
  )

/**
 * An address header of any number of mailboxes, comma-separated; a mailbox that would end past column 78 starts a
 * new line.
 */
export const addressListHeader = (header: string, list: ReadonlyArray<Mailbox>): string => {
  if (list.length === 1) return addressHeader(header, list[0]!.address, list[0]!.email)
  let out = `${header}:`
  let column = out.length
  for (let i = 0; i < list.length; i++) {
    const { address, email } = list[i]!
    let text = mailbox(address, email, column + (i === 0 ? 1 : 2))
    if (i > 0 && column + 2 + firstLine(text) > FOLD_AT) {
      out += `,${CRLF}`
      column = 0
      text = mailbox(address, email, 1)
    } else if (i > 0) {
      out += ","
      column++
    }
    out += ` ${text}`
    const lastBreak = text.lastIndexOf(CRLF)
    column = lastBreak < 0 ? column + 1 + text.length : text.length - lastBreak - 2
  }
  return out + CRLF
}

/** The length of the first line of a text that may hold folds. */
const firstLine = (text: string): number => {
  const end = text.indexOf(CRLF)
  return end < 0 ? text.length : end
}

/** Atoms and spaces only: such a display name needs no quoting. */
const PLAIN_NAME = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?: [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/

/** A display name as a phrase: as it is, as a quoted-string, or as encoded-words. */
const phrase = (name: string, offset: number): string => {
  if (PLAIN_NAME.test(name) && !ENCODED_WORD_LIKE.test(name) && name.length <= 900) return name
  if (PRINTABLE.test(name) && !ENCODED_WORD_LIKE.test(name) && name.length <= 900) {
    return `"${name.replace(/["\\]/g, "\\$&")}"`
  }
  return encodedWords(name, offset)
}

/** A mailbox `Name <email>` (or the bare email) starting at column `offset`; a long name puts the address on a new line. */
const mailbox = (address: MailAddress, email: string, offset: number): string => {
  const name = address.name ? oneLine(address.name).trim() : ""
  if (name === "") return email
  const display = phrase(name, offset)
  const lastLine = display.length - display.lastIndexOf(CRLF) + offset
  return `${display}${lastLine + email.length + 3 > FOLD_AT ? CRLF : ""} <${email}>`
}
