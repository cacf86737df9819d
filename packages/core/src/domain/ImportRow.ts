import { Either } from "effect"
import { isEmail, normalizeEmail } from "./Email.js"

/** Where each known field sits in a CSV's header; every other named column becomes an extra attribute. */
export interface ImportColumns {
  readonly email: number
  readonly firstName: number | null
  readonly lastName: number | null
  readonly tags: number | null
  readonly subscribedAt: number | null
  readonly unsubscribedAt: number | null
  readonly extra: ReadonlyArray<readonly [index: number, name: string]>
}

/** The header names accepted for the address column (compared case-insensitively). */
export const EMAIL_HEADERS = ["email", "email address", "e-mail", "email_address"] as const

const known: Record<string, keyof Omit<ImportColumns, "email" | "extra">> = {
  "first_name": "firstName",
  "first name": "firstName",
  "last_name": "lastName",
  "last name": "lastName",
  "tags": "tags",
  "subscribed_at": "subscribedAt",
  "unsubscribed_at": "unsubscribedAt"
}

/** Reads the header row; a message when it has no email column. */
export const importColumns = (header: ReadonlyArray<string>): Either.Either<ImportColumns, string> => {
  const names = header.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, "") : name).trim())
  const email = names.findIndex((name) => (EMAIL_HEADERS as ReadonlyArray<string>).includes(name.toLowerCase()))
  if (email < 0) {
    return Either.left(
      `No email column found: the first row must be a header with a column named ${EMAIL_HEADERS.map((h) => `"${h}"`).join(", ")}.`
    )
  }
  const columns = { email, firstName: null, lastName: null, tags: null, subscribedAt: null, unsubscribedAt: null } as {
    -readonly [K in keyof ImportColumns]: ImportColumns[K]
  }
  const extra: Array<readonly [number, string]> = []
  names.forEach((name, i) => {
    if (i === email || name === "") return
    const field = known[name.toLowerCase()]
    if (field !== undefined && columns[field] === null) columns[field] = i
    else if (field === undefined && !extra.some(([, taken]) => taken === name)) extra.push([i, name])
  })
  return Either.right({ ...columns, extra })
}

/** One valid data row of an import. Empty cells are absent (`null`, or missing from `attributes`). */
export interface ImportRow {
  readonly line: number
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly tags: ReadonlyArray<string>
  readonly attributes: Readonly<Record<string, string>>
  readonly subscribedAt: Date | null
  readonly unsubscribedAt: Date | null
}

/** A data row the import refuses, with the reason a client will read. */
export interface RejectedRow {
  readonly line: number
  readonly email: string | null
  readonly reason: string
}

/** Whether a character code separates tags: `;`, `,` or `|`. */
const separatesTags = (code: number) => code === 59 || code === 44 || code === 124

/**
 * Splits a tags cell on `;`, `,` and `|`, trimming and dropping empty and repeated (case-insensitive) names; the first
 * spelling stays. Scanned by hand, with the few names of a row compared in a list: a regular expression split and a
 * set a row were ~7 % of what an import allocated (bench/HISTORY.md).
 */
export const splitTags = (cell: string): Array<string> => {
  const tags: Array<string> = []
  if (cell === "") return tags
  let keys: Array<string> | undefined
  for (let from = 0, at = 0; at <= cell.length; at++) {
    if (at < cell.length && !separatesTags(cell.charCodeAt(at))) continue
    const tag = cell.slice(from, at).trim()
    from = at + 1
    if (tag === "" || tag.length > 255) continue
    const key = tag.toLowerCase()
    if (keys === undefined) keys = [key]
    else if (keys.includes(key)) continue
    else keys.push(key)
    tags.push(tag)
  }
  return tags
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/

/** A date cell (`2026-01-31`, `2026-01-31 10:00:00`, ISO 8601; UTC unless an offset is given), or none. */
const parseDate = (cell: string): Date | undefined => {
  const match = DATE.exec(cell.trim())
  if (match === null) return undefined
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = match
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone === undefined ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")}`
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return undefined
  // Date rolls 2026-02-31 over to March; without an offset the day must read back the same
  const rolledOver = zone === undefined && date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`
  return rolledOver ? undefined : date
}

/** A cell's trimmed text ("" when the column is absent or the row is short). */
const cellAt = (fields: ReadonlyArray<string>, index: number | null): string => (index === null ? "" : (fields[index] ?? "").trim())

/** A name cell: at most 255 characters, or null when empty. */
const textAt = (fields: ReadonlyArray<string>, index: number | null): string | null => cellAt(fields, index).slice(0, 255) || null

/** A date cell: null when empty, undefined when it is not a date. */
const dateAt = (fields: ReadonlyArray<string>, index: number | null): Date | null | undefined => {
  const text = cellAt(fields, index)
  return text === "" ? null : parseDate(text)
}

/** Reads one data row: the row, or why it is refused (an invalid address or date). Runs for every row of an import. */
export const importRow = (
  columns: ImportColumns,
  line: number,
  fields: ReadonlyArray<string>
): Either.Either<ImportRow, RejectedRow> => {
  const raw = cellAt(fields, columns.email)
  const email = normalizeEmail(raw)
  if (!isEmail(email)) {
    return Either.left({ line, email: raw === "" ? null : raw.slice(0, 255), reason: raw === "" ? "The email is missing." : "The email is not a valid address." })
  }
  const subscribedAt = dateAt(fields, columns.subscribedAt)
  if (subscribedAt === undefined) return Either.left({ line, email, reason: "The subscribed_at value is not a valid date." })
  const unsubscribedAt = dateAt(fields, columns.unsubscribedAt)
  if (unsubscribedAt === undefined) return Either.left({ line, email, reason: "The unsubscribed_at value is not a valid date." })
  const attributes: Record<string, string> = {}
  for (let i = 0; i < columns.extra.length; i++) {
    const [index, name] = columns.extra[i]!
    const value = cellAt(fields, index)
    if (value !== "") attributes[name] = value
  }
  return Either.right({
    line,
    email,
    firstName: textAt(fields, columns.firstName),
    lastName: textAt(fields, columns.lastName),
    tags: splitTags(cellAt(fields, columns.tags)),
    attributes,
    subscribedAt,
    unsubscribedAt
  })
}
