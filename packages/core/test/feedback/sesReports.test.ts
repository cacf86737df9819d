import { describe, expect, it } from "@effect/vitest"
import { decodeSnsMessage, sesReports, snsStringToSign } from "@mailroom/core"
import { Either } from "effect"
import { sesBounce, sesComplaint, sesDelivery, sesMail, snsNotification, snsSubscriptionConfirmation } from "./payloads/sesPayloads.js"

const SEND = "4f7c2a9e-1b3d-4c5e-8f60-7a8b9c0d1e2f"

describe("sesReports", () => {
  it("a permanent bounce is a hard bounce of each bounced recipient, with the mail's own Message-ID", () => {
    expect(Either.getOrThrow(sesReports(sesBounce({ recipients: ["jane@example.com", "Mary Doe <mary@example.com>"] })))).toEqual({
      reports: [
        { type: "bounce", email: "jane@example.com", sendUuid: null, messageId: "custom-message-ID" },
        { type: "bounce", email: "mary@example.com", sendUuid: null, messageId: "custom-message-ID" }
      ],
      ignored: 0
    })
  })

  it("transient and undetermined bounces are soft bounces", () => {
    for (const bounceType of ["Transient", "Undetermined"]) {
      const parsed = Either.getOrThrow(sesReports(sesBounce({ bounceType })))
      expect(parsed.reports.map((r) => r.type)).toEqual(["soft_bounce"])
    }
  })

  it("a complaint is a complaint of each complained recipient; not-spam feedback is ignored", () => {
    expect(Either.getOrThrow(sesReports(sesComplaint())).reports).toEqual([
      { type: "complaint", email: "richard@example.com", sendUuid: null, messageId: "custom-message-ID" }
    ])
    expect(Either.getOrThrow(sesReports(sesComplaint({ feedbackType: "not-spam" })))).toEqual({ reports: [], ignored: 1 })
  })

  it("reads the send from the X-Mailroom-Send header and falls back to SES's message id without headers", () => {
    const withHeader = sesBounce({ mail: sesMail([{ name: "X-Mailroom-Send", value: SEND }]) })
    expect(Either.getOrThrow(sesReports(withHeader)).reports[0]).toMatchObject({ sendUuid: SEND, messageId: "custom-message-ID" })
    const { commonHeaders: _, headers: __, ...bare } = sesMail()
    expect(Either.getOrThrow(sesReports(sesBounce({ mail: bare }))).reports[0]).toMatchObject({
      sendUuid: null,
      messageId: "00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000"
    })
  })

  it("takes event publishing payloads (eventType) too, and ignores deliveries", () => {
    const { notificationType: _, ...event } = sesBounce()
    expect(Either.getOrThrow(sesReports({ eventType: "Bounce", ...event })).reports).toHaveLength(1)
    expect(Either.getOrThrow(sesReports(sesDelivery))).toEqual({ reports: [], ignored: 1 })
  })

  it("refuses what is not an SES notification", () => {
    expect(Either.isLeft(sesReports([]))).toBe(true)
    expect(Either.isLeft(sesReports({ mail: {} }))).toBe(true)
    expect(Either.isLeft(sesReports({ notificationType: "Bounce" }))).toBe(true)
  })
})

describe("SNS messages", () => {
  it("the canonical string of a notification names its fields in order, Subject only when present", () => {
    const message = Either.getOrThrow(decodeSnsMessage(snsNotification("Hello world!")))
    expect(Either.getOrThrow(snsStringToSign(message))).toBe(
      "Message\nHello world!\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nSubject\nAmazon SES Email Event Notification\n" +
        "Timestamp\n2012-05-02T00:54:06.655Z\nTopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\nType\nNotification\n"
    )
    const { Subject: _, ...untitled } = snsNotification("Hi")
    expect(Either.getOrThrow(snsStringToSign(Either.getOrThrow(decodeSnsMessage(untitled))))).not.toContain("Subject")
  })

  it("the canonical string of a subscription confirmation includes SubscribeURL and Token", () => {
    const confirmation = snsSubscriptionConfirmation()
    const message = Either.getOrThrow(decodeSnsMessage(confirmation))
    const fields = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"] as const
    expect(Either.getOrThrow(snsStringToSign(message))).toBe(fields.map((field) => `${field}\n${confirmation[field]}\n`).join(""))
  })

  it("refuses bodies that are not SNS messages", () => {
    expect(Either.isLeft(decodeSnsMessage({ Type: "Notification" }))).toBe(true)
    expect(Either.isLeft(decodeSnsMessage({ ...snsNotification("x"), SignatureVersion: "3" }))).toBe(true)
    const { SubscribeURL: _, ...noUrl } = snsSubscriptionConfirmation()
    expect(Either.isLeft(snsStringToSign(Either.getOrThrow(decodeSnsMessage(noUrl))))).toBe(true)
  })
})
