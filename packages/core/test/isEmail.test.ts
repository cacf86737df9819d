import { describe, expect, it } from "@effect/vitest"
import { isEmail } from "@mailroom/core"

const valid = [
  "a@example.com",
  "ann.lee@example.co.uk",
  "o'brien+news@example.org",
  "x_y-z!#$%&'*+/=?^`{|}~@sub-domain.example.io",
  "user@1example.com",
  "user@example.c0m",
  "user@xn--bcher-kva.example",
  `${"l".repeat(64)}@example.com`,
  `u@${"d".repeat(63)}.com`,
  `u@${Array.from({ length: 4 }, () => "d".repeat(60)).join(".")}.com`.slice(0, 254)
]

const invalid = [
  "",
  "plain",
  "@example.com",
  "a@",
  "a@example",
  "a@example.",
  "a@.example.com",
  "a@example..com",
  "a..b@example.com",
  ".a@example.com",
  "a.@example.com",
  "a@b@example.com",
  "a b@example.com",
  "a@exa mple.com",
  "a@-example.com",
  "a@example-.com",
  "a@example.123",
  "a@example.c_m",
  "ann@example.com\n",
  "\"quoted\"@example.com",
  "ünïcode@example.com",
  "a@exämple.com",
  `${"l".repeat(65)}@example.com`,
  `u@${"d".repeat(64)}.com`,
  `u@${"d.".repeat(130)}com`
]

describe("isEmail", () => {
  it("accepts addresses of the strict syntax", () => {
    for (const address of valid) expect(isEmail(address), address).toBe(true)
  })

  it("refuses everything else: missing parts, empty or malformed labels, a numeric top label, quotes, spaces, non-ASCII, parts too long", () => {
    for (const address of invalid) expect(isEmail(address), address).toBe(false)
  })
})
