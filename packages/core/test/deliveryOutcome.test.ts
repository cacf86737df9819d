import { describe, expect, it } from "@effect/vitest"
import { type ClaimedSend, deliveryOutcome, MailError, type SendId, type SendUuid } from "@mailroom/core"

const send = (attempts: number, deferredSince: Date | null = null): ClaimedSend => ({
  id: 7 as SendId,
  uuid: "0190a3d2-0000-7000-8000-000000000000" as SendUuid,
  email: "a@example.com",
  attempts,
  deferredSince,
  subscriber: null
})
const at = new Date("2026-01-01T00:00:00Z")
const HOURS_48 = 48 * 3_600_000
const retryIn = (error: MailError, attempts: number) => {
  const { result } = deliveryOutcome(send(attempts, at), error, at, HOURS_48)
  return result._tag === "Retry" ? (result.retryAt.getTime() - at.getTime()) / 1000 : result._tag
}

describe("deliveryOutcome", () => {
  it("backs a refused recipient off from 30 s to an hour, but retries an unreachable server every 30 s", () => {
    const greylisted = new MailError({ message: "451 4.7.1 greylisted", failure: "temporary", code: 451, enhancedCode: "4.7.1" })
    const unreachable = new MailError({ message: "connect ECONNREFUSED", failure: "temporary" })
    const busy = new MailError({ message: "421 4.3.2 too busy", failure: "temporary", code: 421 })
    expect([0, 1, 2, 3, 7, 20].map((attempts) => retryIn(greylisted, attempts))).toEqual([30, 60, 120, 240, 3_600, 3_600])
    expect([0, 1, 5, 20].map((attempts) => retryIn(unreachable, attempts))).toEqual([30, 30, 30, 30])
    expect(retryIn(busy, 6)).toBe(30)
  })

  it("gives a temporary failure up as a soft bounce once the retry time has passed since the first one", () => {
    const error = new MailError({ message: "451 later", failure: "temporary", code: 451 })
    const first = deliveryOutcome(send(0), error, at, HOURS_48)
    expect(first).toMatchObject({ result: { _tag: "Retry", reason: "451 later" }, bounce: null })
    const later = new Date(at.getTime() + HOURS_48 - 1)
    expect(deliveryOutcome(send(9, at), error, later, HOURS_48).result._tag).toBe("Retry")
    const last = deliveryOutcome(send(10, at), error, new Date(at.getTime() + HOURS_48), HOURS_48)
    expect(last).toMatchObject({ result: { _tag: "Failed", attempted: true }, bounce: "soft_bounce" })
    expect(last.result._tag === "Failed" && last.result.reason).toBe("Gave up after 48 h of temporary failures; last: 451 later")
  })

  it("an unknown outcome is sent and uncertain; a permanent refusal fails with the bounce its codes say", () => {
    expect(deliveryOutcome(send(0), new MailError({ message: "lost", failure: "unknown" }), at, HOURS_48))
      .toEqual({ result: { _tag: "Sent", id: 7, transportMessageId: null, uncertain: true }, bounce: null })
    expect(deliveryOutcome(send(0), null, at, HOURS_48)).toEqual({ result: { _tag: "Sent", id: 7, transportMessageId: null }, bounce: null })
    const unknownUser = new MailError({ message: "550 5.1.1 no such user", failure: "permanent", code: 550, enhancedCode: "5.1.1" })
    expect(deliveryOutcome(send(0), unknownUser, at, HOURS_48))
      .toEqual({ result: { _tag: "Failed", id: 7, reason: "550 5.1.1 no such user", attempted: true }, bounce: "bounce" })
    const full = new MailError({ message: "552 5.2.2 mailbox full", failure: "permanent", code: 552, enhancedCode: "5.2.2" })
    expect(deliveryOutcome(send(0), full, at, HOURS_48).bounce).toBe("soft_bounce")
  })
})
