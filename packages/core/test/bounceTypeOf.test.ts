import { describe, expect, it } from "@effect/vitest"
import { bounceTypeOf } from "@mailroom/core"

describe("bounceTypeOf", () => {
  it("calls a missing or disabled mailbox a hard bounce, anything else a soft one", () => {
    const cases: ReadonlyArray<readonly [number, string | null, string]> = [
      [550, "5.1.1", "bounce"], // no such user
      [553, "5.1.3", "bounce"], // bad address syntax
      [550, "5.1.10", "bounce"], // null MX
      [550, "5.2.1", "bounce"], // mailbox disabled
      [550, "5.1.8", "soft_bounce"], // our own sender address was refused
      [552, "5.2.2", "soft_bounce"], // mailbox full
      [552, "5.3.4", "soft_bounce"], // message too big
      [554, "5.7.1", "soft_bounce"], // policy or spam refusal
      [550, "5.7.1", "soft_bounce"],
      [550, null, "bounce"],
      [551, null, "bounce"],
      [553, null, "bounce"],
      [554, null, "soft_bounce"],
      [552, null, "soft_bounce"]
    ]
    for (const [code, enhancedCode, type] of cases) expect([code, enhancedCode, bounceTypeOf({ code, enhancedCode })]).toEqual([code, enhancedCode, type])
  })
})
