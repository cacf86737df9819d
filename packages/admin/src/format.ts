const numbers = new Intl.NumberFormat("en")
const dates = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" })

/** 1234567 → "1,234,567" (the API sends some counts as strings). */
export const formatNumber = (value: number | string | null | undefined): string =>
  value === null || value === undefined || value === "" ? "–" : numbers.format(Number(value))

/** A rate as a percentage with one decimal ("12.5 %"); the API sends rates in basis points (1250), as numbers or strings. */
export const formatRate = (value: number | string | null | undefined): string =>
  value === null || value === undefined ? "–" : `${(Number(value) / 100).toFixed(1)} %`

/** An API timestamp in the browser's time zone, or "–". */
export const formatDate = (value: string | null | undefined): string => (value ? dates.format(new Date(value)) : "–")

/** A subscriber's or a list's name for headings. */
export const fullName = (first: string | null, last: string | null): string => [first, last].filter(Boolean).join(" ")

const pad = (n: number) => String(n).padStart(2, "0")

/** A local date-time input value as the API's UTC `Y-m-d H:i:s`. */
export const toApiTime = (local: string): string => {
  const date = new Date(local)
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:00`
}
