const localPart = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const domainLabel = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/

/** True when the text is a syntactically valid address (strict syntax, no DNS look-up). */
export const isEmail = (text: string): boolean => {
  if (text.length > 254) return false
  const at = text.lastIndexOf("@")
  if (at < 1) return false
  const local = text.slice(0, at)
  const labels = text.slice(at + 1).split(".")
  return local.length <= 64 && localPart.test(local) && labels.length >= 2 &&
    labels.every((label) => domainLabel.test(label)) && /[A-Za-z]/.test(labels[labels.length - 1]!)
}

/** The canonical form of an address: trimmed and lower-cased, so comparisons are case-insensitive. */
export const normalizeEmail = (text: string): string => text.trim().toLowerCase()

/** Splits a comma-separated list of addresses, trimming each and dropping empty items. */
export const splitEmails = (text: string): Array<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item.length > 0)
