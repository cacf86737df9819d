import type { ActionDuration } from "./AutomationAction.js"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** Adds calendar months in UTC, keeping the day where the month has it (Jan 31 + 1 month = Feb 28/29). */
const addMonths = (from: Date, months: number): Date => {
  const result = new Date(from.getTime())
  const day = result.getUTCDate()
  result.setUTCDate(1)
  result.setUTCMonth(result.getUTCMonth() + months)
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate()
  result.setUTCDate(Math.min(day, last))
  return result
}

const isWeekend = (at: Date): boolean => at.getUTCDay() === 0 || at.getUTCDay() === 6

/** Adds working days (Monday to Friday, UTC) keeping the time of day: Friday + 1 weekday is Monday. */
const addWeekdays = (from: Date, days: number): Date => {
  let at = from.getTime()
  for (let left = days; left > 0;) {
    at += DAY
    if (!isWeekend(new Date(at))) left--
  }
  return new Date(at)
}

/** When a wait of `duration` that began at `from` ends. */
export const waitUntil = (from: Date, duration: ActionDuration): Date => {
  switch (duration.unit) {
    case "minutes":
      return new Date(from.getTime() + duration.length * MINUTE)
    case "hours":
      return new Date(from.getTime() + duration.length * 60 * MINUTE)
    case "days":
      return new Date(from.getTime() + duration.length * DAY)
    case "weeks":
      return new Date(from.getTime() + duration.length * 7 * DAY)
    case "weekdays":
      return addWeekdays(from, duration.length)
    case "months":
      return addMonths(from, duration.length)
  }
}

/** The next occurrence after `at` of a date repeating daily, monthly or yearly (for date triggers). */
export const nextOccurrence = (at: Date, repeat: "daily" | "monthly" | "yearly"): Date =>
  repeat === "daily" ? new Date(at.getTime() + DAY) : addMonths(at, repeat === "monthly" ? 1 : 12)

/** Midnight (UTC) of the day of `at`. */
export const startOfDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY) * DAY)

/** Midnight (UTC) of the day after `at`. */
export const nextDay = (at: Date): Date => new Date(startOfDay(at).getTime() + DAY)

/** The day `days` after `at` (negative: before), as `YYYY-MM-DD`. */
export const dayKey = (at: Date, days = 0): string => new Date(at.getTime() + days * DAY).toISOString().slice(0, 10)
