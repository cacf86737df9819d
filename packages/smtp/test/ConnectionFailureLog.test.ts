import { describe, expect, it } from "@effect/vitest"
import { ConnectionFailureLog } from "../src/internal/ConnectionFailureLog.js"

describe("ConnectionFailureLog", () => {
  it("tells the first failure at once, then at most one line per 30 s and destination with the count held back", () => {
    const log = new ConnectionFailureLog()
    expect(log.note("mx:25", "connect ECONNREFUSED", 0)).toBe("SMTP connection to mx:25 failed: connect ECONNREFUSED")
    expect(log.note("mx:25", "connect ECONNREFUSED", 1_000)).toBeNull()
    expect(log.note("other:587", "timeout", 2_000)).toBe("SMTP connection to other:587 failed: timeout")
    expect(log.note("mx:25", "connect ECONNREFUSED", 29_999)).toBeNull()
    expect(log.note("mx:25", "connect ECONNREFUSED", 30_000)).toBe(
      "SMTP connection to mx:25 failed: connect ECONNREFUSED (2 more failures in the last 30 s not logged)"
    )
    expect(log.note("mx:25", "connect ECONNREFUSED", 70_000)).toBe("SMTP connection to mx:25 failed: connect ECONNREFUSED")
  })
})
