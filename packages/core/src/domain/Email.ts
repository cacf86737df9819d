const LOCAL_PART = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
const DOMAIN_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
/** A local part, one "@", and two or more domain labels of which the last has a letter. */
const ADDRESS = new RegExp(`^${LOCAL_PART}@(?:${DOMAIN_LABEL}\\.)+(?=[A-Za-z0-9-]*[A-Za-z])${DOMAIN_LABEL}$`)

/**
 * True when the text is a syntactically valid address (strict syntax, no DNS look-up): at most 254 characters, a local
 * part of at most 64. One regular expression over the whole text (no slices or splits: an import checks every row).
 */
export const isEmail = (text: string): boolean => {
  if (text.length > 254) return false
  const at = text.indexOf("@")
  return at >= 1 && at <= 64 && ADDRESS.test(text)
}

/** The canonical form of an address: trimmed and lower-cased, so comparisons are case-insensitive. */
export const normalizeEmail = (text: string): string => text.trim().toLowerCase()

/** Splits a comma-separated list of addresses, trimming each and dropping empty items. */
export const splitEmails = (text: string): Array<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item.length > 0)
