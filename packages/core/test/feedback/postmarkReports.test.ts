import { describe, expect, it } from "@effect/vitest"
import { postmarkReports } from "@mailroom/core"
import { Either } from "effect"
import { postmarkBounce, postmarkDelivery, postmarkSpamComplaint } from "./payloads/postmarkPayloads.js"

const SEND = "4f7c2a9e-1b3d-4c5e-8f60-7a8b9c0d1e2f"
const typeOf = (payload: unknown) => Either.getOrThrow(postmarkReports(payload)).reports[0]?.type ?? null

describe("postmarkReports", () => {
  it("a hard bounce is a bounce of the Email, with Postmark's MessageID", () => {
    expect(Either.getOrThrow(postmarkReports(postmarkBounce()))).toEqual({
      reports: [{ type: "bounce", email: "john@example.com", sendUuid: null, messageId: "883953f4-6105-42a2-a16a-77a8eac79483" }],
      ignored: 0
    })
  })

  it("maps Postmark's bounce types: address gone → bounce, temporary or policy → soft_bounce, others ignored", () => {
    expect(typeOf(postmarkBounce({ type: "BadEmailAddress", typeCode: 100000 }))).toBe("bounce")
    expect(typeOf(postmarkBounce({ type: "SoftBounce", typeCode: 4096 }))).toBe("soft_bounce")
    expect(typeOf(postmarkBounce({ type: "Transient", typeCode: 2 }))).toBe("soft_bounce")
    expect(typeOf(postmarkBounce({ type: "DnsError", typeCode: 256 }))).toBe("soft_bounce")
    expect(typeOf(postmarkBounce({ type: "SpamComplaint", typeCode: 100001 }))).toBe("complaint")
    expect(Either.getOrThrow(postmarkReports(postmarkBounce({ type: "AutoResponder", typeCode: 64 })))).toEqual({ reports: [], ignored: 1 })
  })

  it("a spam complaint is a complaint; the send comes from the metadata", () => {
    expect(Either.getOrThrow(postmarkReports(postmarkSpamComplaint({ metadata: { "X-Mailroom-Send": SEND } }))).reports).toEqual([
      { type: "complaint", email: "john@example.com", sendUuid: SEND, messageId: "00000000-0000-0000-0000-000000000000" }
    ])
    expect(Either.getOrThrow(postmarkReports(postmarkBounce({ metadata: { mailroom_send: SEND } }))).reports[0]?.sendUuid).toBe(SEND)
  })

  it("reads the send from a copy of the mail's headers in Content", () => {
    const payload = { ...postmarkBounce(), Content: `Received: by x\r\nX-Mailroom-Send: <${SEND}>\r\nSubject: Hi\r\n\r\nbody` }
    expect(Either.getOrThrow(postmarkReports(payload)).reports[0]?.sendUuid).toBe(SEND)
  })

  it("ignores deliveries and refuses bodies without RecordType or Email", () => {
    expect(Either.getOrThrow(postmarkReports(postmarkDelivery))).toEqual({ reports: [], ignored: 1 })
    expect(Either.isLeft(postmarkReports({ Type: "HardBounce" }))).toBe(true)
    expect(Either.isLeft(postmarkReports({ ...postmarkBounce(), Email: "" }))).toBe(true)
    expect(Either.isLeft(postmarkReports("Bounce"))).toBe(true)
  })
})
