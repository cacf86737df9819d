import type { AutomationTrigger } from "./AutomationTrigger.js"
import { nextOccurrence, startOfDay } from "./waitUntil.js"

/** `Y-m-d H:i:s` (UTC) as a Date. */
export const parseScheduleAt = (text: string): Date => new Date(`${text.replace(" ", "T")}Z`)

/**
 * When a timed trigger started at `now` first enrols: a one-off date at its time (at once when it is past); a repeating
 * one at its first occurrence from now on; attribute dates today (checked once a day). Null for other triggers.
 */
export const firstTriggerAt = (trigger: AutomationTrigger | null, now: Date): Date | null => {
  if (trigger === null) return null
  if (trigger.type === "attribute_date") return startOfDay(now)
  if (trigger.type !== "date") return null
  let at = parseScheduleAt(trigger.at)
  if (trigger.repeat === "none") return at
  while (at.getTime() < now.getTime()) at = nextOccurrence(at, trigger.repeat)
  return at
}
