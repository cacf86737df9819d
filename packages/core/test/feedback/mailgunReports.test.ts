import { describe, expect, it } from "@effect/vitest"
import { mailgunReports, mailgunSignature } from "@mailroom/core"
import { Either } from "effect"
import { mailgunComplained, mailgunDelivered, mailgunFailed } from "./payloads/mailgunPayloads.js"

const SEND = "4f7c2a9e-1b3d-4c5e-8f60-7a8b9c0d1e2f"

describe("mailgunReports", () => {
  it("a permanent failure is a bounce of the recipient, with the Message-ID of the headers", () => {
    expect(Either.getOrThrow(mailgunReports(mailgunFailed()))).toEqual({
      reports: [{ type: "bounce", email: "alice@example.com", sendUuid: null, messageId: "20130503192659.13651.20287@sandbox.mailgun.org" }],
      ignored: 0
    })
  })

  it("a temporary failure is a soft bounce", () => {
    expect(Either.getOrThrow(mailgunReports(mailgunFailed({ severity: "temporary" }))).reports.map((r) => r.type)).toEqual(["soft_bounce"])
  })

  it("a complaint is a complaint; the send comes from the user variables", () => {
    expect(Either.getOrThrow(mailgunReports(mailgunComplained({ variables: { mailroom_send: SEND } }))).reports).toEqual([
      { type: "complaint", email: "alice@example.com", sendUuid: SEND, messageId: "20110215055645.25246.63817@sandbox.mailgun.org" }
    ])
  })

  it("a mail not sent because of Mailgun's complaint list is a complaint; because of its unsubscribe list, ignored", () => {
    expect(Either.getOrThrow(mailgunReports(mailgunFailed({ reason: "suppress-complaint" }))).reports[0]?.type).toBe("complaint")
    expect(Either.getOrThrow(mailgunReports(mailgunFailed({ reason: "suppress-unsubscribe" })))).toEqual({ reports: [], ignored: 1 })
  })

  it("ignores deliveries and refuses bodies without event-data or recipient", () => {
    expect(Either.getOrThrow(mailgunReports(mailgunDelivered))).toEqual({ reports: [], ignored: 1 })
    expect(Either.isLeft(mailgunReports({ signature: {} }))).toBe(true)
    const { recipient: _, ...noRecipient } = mailgunFailed()["event-data"]
    expect(Either.isLeft(mailgunReports({ "event-data": noRecipient }))).toBe(true)
  })

  it("reads the signature, or none when a field is missing", () => {
    expect(mailgunSignature(mailgunFailed())).toEqual({
      timestamp: "1529006854",
      token: "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0",
      signature: "d2271d12299f6592d9d44cd9d250f0704e4674c30d79d07c47a66f95ce71cf55"
    })
    expect(mailgunSignature({ signature: { timestamp: "1", token: "t" } })).toBeNull()
    expect(mailgunSignature([])).toBeNull()
  })
})
