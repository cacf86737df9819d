import { describe, expect, it } from "@effect/vitest"
import { attributeDateMatches } from "../../src/automations/attributeDate.js"
import { firstTriggerAt } from "../../src/automations/triggerSchedule.js"
import { waitUntil } from "../../src/automations/waitUntil.js"

const at = (text: string) => new Date(text)

describe("waitUntil", () => {
  it("adds minutes, hours, days and weeks", () => {
    expect(waitUntil(at("2026-11-26T10:00:00Z"), { length: 90, unit: "minutes" }).toISOString()).toBe("2026-11-26T11:30:00.000Z")
    expect(waitUntil(at("2026-11-26T10:00:00Z"), { length: 3, unit: "hours" }).toISOString()).toBe("2026-11-26T13:00:00.000Z")
    expect(waitUntil(at("2026-11-26T10:00:00Z"), { length: 2, unit: "days" }).toISOString()).toBe("2026-11-28T10:00:00.000Z")
    expect(waitUntil(at("2026-11-26T10:00:00Z"), { length: 1, unit: "weeks" }).toISOString()).toBe("2026-12-03T10:00:00.000Z")
  })

  it("counts weekdays only: Thursday + 2 weekdays is Monday, Friday + 1 is Monday", () => {
    expect(waitUntil(at("2026-11-26T10:00:00Z"), { length: 2, unit: "weekdays" }).toISOString()).toBe("2026-11-30T10:00:00.000Z")
    expect(waitUntil(at("2026-11-27T08:00:00Z"), { length: 1, unit: "weekdays" }).toISOString()).toBe("2026-11-30T08:00:00.000Z")
    expect(waitUntil(at("2026-11-28T08:00:00Z"), { length: 1, unit: "weekdays" }).toISOString()).toBe("2026-11-30T08:00:00.000Z")
  })

  it("adds calendar months, keeping the day where the month has it", () => {
    expect(waitUntil(at("2026-01-31T09:00:00Z"), { length: 1, unit: "months" }).toISOString()).toBe("2026-02-28T09:00:00.000Z")
    expect(waitUntil(at("2026-11-15T09:00:00Z"), { length: 3, unit: "months" }).toISOString()).toBe("2027-02-15T09:00:00.000Z")
  })
})

describe("timed triggers", () => {
  it("a one-off date fires at its time, a repeating one at its next occurrence from now on", () => {
    const now = at("2026-11-26T12:00:00Z")
    expect(firstTriggerAt({ type: "date", at: "2026-11-20 09:00:00", repeat: "none" }, now)?.toISOString()).toBe("2026-11-20T09:00:00.000Z")
    expect(firstTriggerAt({ type: "date", at: "2026-11-20 09:00:00", repeat: "daily" }, now)?.toISOString()).toBe("2026-11-27T09:00:00.000Z")
    expect(firstTriggerAt({ type: "date", at: "2025-12-01 09:00:00", repeat: "yearly" }, now)?.toISOString()).toBe("2026-12-01T09:00:00.000Z")
    expect(firstTriggerAt({ type: "attribute_date", attribute: "birthday", offset_days: 0, yearly: true }, now)?.toISOString()).toBe("2026-11-26T00:00:00.000Z")
    expect(firstTriggerAt({ type: "subscribed" }, now)).toBeNull()
  })

  it("matches attribute dates with an offset, yearly by month and day (29 February on the 28th in other years)", () => {
    const now = at("2027-02-28T06:00:00Z")
    expect(attributeDateMatches("1990-02-28", now, 0, true)).toBe(true)
    expect(attributeDateMatches("1992-02-29", now, 0, true)).toBe(true)
    expect(attributeDateMatches("1992-02-29", at("2028-02-28T06:00:00Z"), 0, true)).toBe(false)
    expect(attributeDateMatches("2027-02-28", now, 0, false)).toBe(true)
    expect(attributeDateMatches("2026-02-28", now, 0, false)).toBe(false)
    expect(attributeDateMatches("2027-02-25T10:00:00Z", now, 3, false)).toBe(true)
    expect(attributeDateMatches("2027-03-03", now, -3, false)).toBe(true)
    expect(attributeDateMatches("not a date", now, 0, true)).toBe(false)
    expect(attributeDateMatches(19900228, now, 0, true)).toBe(false)
  })
})
