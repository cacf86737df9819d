import type { ActionCondition } from "./AutomationAction.js"
import type { SubscriberFacts } from "./AutomationRunRepository.js"

const isBlank = (value: unknown): boolean => value === null || value === undefined || (typeof value === "string" && value.trim() === "")

/** A number when both sides read as numbers, else a time when both read as ISO dates, else null. */
const comparable = (left: unknown, right: unknown): readonly [number, number] | null => {
  const asNumber = (value: unknown) => (typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN)
  const [a, b] = [asNumber(left), asNumber(right)]
  if (!Number.isNaN(a) && !Number.isNaN(b)) return [a, b]
  const asDate = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN)
  const [c, d] = [asDate(left), asDate(right)]
  return !Number.isNaN(c) && !Number.isNaN(d) ? [c, d] : null
}

/** Compares an extra attribute with a value: numbers and ISO dates by value, anything else as text. */
export const compareAttribute = (actual: unknown, comparison: string, expected: unknown): boolean => {
  if (comparison === "empty") return isBlank(actual)
  if (comparison === "not_empty") return !isBlank(actual)
  if (actual === null || actual === undefined) return comparison === "!=" ? !isBlank(expected) : false
  const pair = comparable(actual, expected)
  const order = pair === null ? String(actual).localeCompare(String(expected ?? "")) : Math.sign(pair[0] - pair[1])
  switch (comparison) {
    case "=":
      return order === 0
    case "!=":
      return order !== 0
    case ">":
      return order > 0
    case ">=":
      return order >= 0
    case "<":
      return order < 0
    default:
      return order <= 0
  }
}

/**
 * Whether a condition holds for a subscriber; `engaged` answers the opened/clicked questions (asked of the run's send
 * of the mail), null when they were not asked yet.
 */
export const conditionMet = (condition: ActionCondition, facts: SubscriberFacts, engaged: boolean | null): boolean | null => {
  switch (condition.type) {
    case "has_tag":
      return facts.tagNames.some((name) => name.toLowerCase() === condition.tag.trim().toLowerCase())
    case "attribute":
      return compareAttribute(facts.extraAttributes[condition.attribute], condition.comparison, condition.value)
    default:
      return engaged
  }
}
