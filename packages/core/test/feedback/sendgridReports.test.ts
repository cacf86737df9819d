import { describe, expect, it } from "@effect/vitest"
import { sendgridReports } from "@mailroom/core"
import { Either } from "effect"
import { sendgridBatch, sendgridBounce, sendgridDropped, sendgridSpamReport } from "./payloads/sendgridPayloads.js"

const SEND = "4f7c2a9e-1b3d-4c5e-8f60-7a8b9c0d1e2f"
const parse = (events: unknown) => Either.getOrThrow(sendgridReports(events))

describe("sendgridReports", () => {
  it("a bounce is a bounce of the email, with the Message-ID of smtp-id", () => {
    expect(parse([sendgridBounce()])).toEqual({
      reports: [{ type: "bounce", email: "example@test.com", sendUuid: null, messageId: "<14c5d75ce93.dfd.64b469@ismtpd-555>" }],
      ignored: 0
    })
  })

  it("a blocked bounce is a soft bounce, a spam report a complaint", () => {
    expect(parse([sendgridBounce("a@test.com", "blocked"), sendgridSpamReport("b@test.com")]).reports.map((r) => [r.email, r.type])).toEqual([
      ["a@test.com", "soft_bounce"],
      ["b@test.com", "complaint"]
    ])
  })

  it("a drop for a bounced or invalid address is a bounce, for a spam reporter a complaint; other drops are ignored", () => {
    const parsed = parse([
      sendgridDropped("a@test.com", "Bounced Address"),
      sendgridDropped("b@test.com", "Invalid"),
      sendgridDropped("c@test.com", "Spam Reporting Address"),
      sendgridDropped("d@test.com", "Unsubscribed Address"),
      sendgridDropped("e@test.com", "Spam Content (if spam checker app enabled)")
    ])
    expect(parsed.reports.map((r) => [r.email, r.type])).toEqual([["a@test.com", "bounce"], ["b@test.com", "bounce"], ["c@test.com", "complaint"]])
    expect(parsed.ignored).toBe(2)
  })

  it("reads the send from a custom argument, and sg_message_id without smtp-id", () => {
    const { "smtp-id": _, ...noSmtpId } = sendgridBounce("a@test.com", "bounce", { mailroom_send: SEND })
    expect(parse([noSmtpId]).reports[0]).toMatchObject({
      sendUuid: SEND,
      messageId: "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.000000000000000000000"
    })
  })

  it("takes the reference's batch: deferred, delivered, opens, clicks and unsubscribes are ignored", () => {
    const parsed = parse(sendgridBatch)
    expect(parsed.reports.map((r) => [r.email, r.type])).toEqual([
      ["bounced@test.com", "bounce"],
      ["blocked@test.com", "soft_bounce"],
      ["dropped@test.com", "bounce"],
      ["spam@test.com", "complaint"]
    ])
    expect(parsed.ignored).toBe(8)
  })

  it("refuses a body that is not an array of events; items that are not events are ignored", () => {
    expect(Either.isLeft(sendgridReports(sendgridBounce()))).toBe(true)
    expect(parse([1, "x", null, { event: "bounce" }])).toEqual({ reports: [], ignored: 4 })
  })
})
