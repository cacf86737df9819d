import { Schema } from "effect"
import { isEmail, normalizeEmail } from "../domain/Email.js"

/** An address of a transactional mail as the log shows it. */
export const NamedAddress = Schema.Struct({ email: Schema.String, name: Schema.NullOr(Schema.String) })
/** @since 0.2.0 */
export type NamedAddress = typeof NamedAddress.Type

/** Splits at commas outside double quotes and angle brackets (`"Doe, Jane" <jane@example.com>, bob@example.com`). */
const splitOutsideQuotes = (text: string): Array<string> => {
  const items: Array<string> = []
  let quoted = false
  let angled = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "\\" && quoted) i++
    else if (c === "\"") quoted = !quoted
    else if (c === "<" && !quoted) angled = true
    else if (c === ">" && !quoted) angled = false
    else if (c === "," && !quoted && !angled) {
      items.push(text.slice(start, i))
      start = i + 1
    }
  }
  items.push(text.slice(start))
  return items.map((item) => item.trim()).filter((item) => item !== "")
}

const NAMED = /^(.*?)\s*<([^<>\s]+)>$/

/** One address, bare (`a@b.c`) or named (`Name <a@b.c>`, `"Doe, Jane" <a@b.c>`); null when it is not valid. */
export const parseAddress = (text: string): NamedAddress | null => {
  const trimmed = text.trim()
  const named = NAMED.exec(trimmed)
  const email = (named === null ? trimmed : named[2]!).trim()
  if (!isEmail(email) || /[\r\n]/.test(trimmed)) return null
  if (named === null) return { email, name: null }
  let name = named[1]!.trim()
  if (name.length >= 2 && name.startsWith("\"") && name.endsWith("\"")) name = name.slice(1, -1).replace(/\\(.)/g, "$1")
  else if (name.includes("\"")) return null
  return { email, name: name === "" ? null : name }
}

/** A comma-separated list of addresses; `invalid` holds the items that are not valid addresses. */
export const parseAddressList = (
  text: string
): { readonly addresses: ReadonlyArray<NamedAddress>; readonly invalid: ReadonlyArray<string> } => {
  const addresses: Array<NamedAddress> = []
  const invalid: Array<string> = []
  for (const item of splitOutsideQuotes(text)) {
    const address = parseAddress(item)
    if (address === null) invalid.push(item)
    else addresses.push(address)
  }
  return { addresses, invalid }
}

/** An address as a header shows it: `Name <a@b.c>` (quoted when needed) or `a@b.c`. */
export const formatAddress = (address: NamedAddress): string =>
  address.name === null || address.name === ""
    ? address.email
    : `${/^[\w .'-]*$/.test(address.name) ? address.name : `"${address.name.replace(/["\\]/g, "\\$&")}"`} <${address.email}>`

/** Every recipient address of a mail (To, Cc and Bcc), normalized: what suppressions are checked against. */
export const recipientEmails = (mail: {
  readonly to: ReadonlyArray<NamedAddress>
  readonly cc: ReadonlyArray<NamedAddress>
  readonly bcc: ReadonlyArray<NamedAddress>
}): Array<string> => [...mail.to, ...mail.cc, ...mail.bcc].map((address) => normalizeEmail(address.email))
