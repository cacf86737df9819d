/** Public ids: UUID version 7 (RFC 9562), unique, carrying their creation time, so ids made later sort after. */
import { describe, expect, it } from "@effect/vitest"
import { newUuid } from "@mailroom/core"

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("newUuid", () => {
  it("makes version 7 UUIDs with the RFC 9562 variant, all different, with the time they were made", () => {
    const before = Date.now()
    const ids = Array.from({ length: 20_000 }, () => newUuid())
    const after = Date.now()
    expect(ids.filter((id) => !V7.test(id))).toEqual([])
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of [ids[0]!, ids.at(-1)!]) {
      const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16)
      expect(ms).toBeGreaterThanOrEqual(before)
      expect(ms).toBeLessThanOrEqual(after)
    }
  })

  it("draws every digit after the version from the random bits (16 values each, 4 for the variant's)", () => {
    const ids = Array.from({ length: 5_000 }, () => newUuid())
    for (let at = 15; at < 36; at++) {
      if (at === 18 || at === 23) continue
      const seen = new Set(ids.map((id) => id[at]))
      expect({ at, values: seen.size }).toEqual({ at, values: at === 19 ? 4 : 16 })
    }
  })

  it("sorts an id made in a later millisecond after an earlier one", async () => {
    const first = newUuid()
    await new Promise((resolve) => setTimeout(resolve, 3))
    const second = newUuid()
    expect(second > first).toBe(true)
    expect(second.slice(0, 13)).not.toBe(first.slice(0, 13))
  })
})
