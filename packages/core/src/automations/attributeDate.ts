import { dayKey } from "./waitUntil.js"

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/**
 * Whether a subscriber's attribute date (`YYYY-MM-DD…`) plus `offsetDays` falls on the day of `at` (UTC); `yearly`
 * compares month and day only, and a 29 February counts on the 28th in other years.
 */
export const attributeDateMatches = (value: unknown, at: Date, offsetDays: number, yearly: boolean): boolean => {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return false
  const target = dayKey(at, -offsetDays)
  const date = value.slice(0, 10)
  if (!yearly) return date === target
  const monthDay = date.slice(5)
  if (monthDay === target.slice(5)) return true
  return monthDay === "02-29" && target.slice(5) === "02-28" && !isLeap(Number(target.slice(0, 4)))
}
