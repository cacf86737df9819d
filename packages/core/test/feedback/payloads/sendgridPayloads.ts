/** SendGrid Event Webhook examples (Twilio SendGrid docs, "Event Webhook reference"). */

const common = (email: string) => ({
  "email": email,
  "timestamp": 1513299569,
  "smtp-id": "<14c5d75ce93.dfd.64b469@ismtpd-555>",
  "category": "cat facts",
  "sg_event_id": "rbtnWrG1DVDGGGFHFyun0A==",
  "sg_message_id": "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.000000000000000000000"
})

/** A `bounce` event: `type` bounce (the address is rejected) or blocked (the mail was refused this time). */
export const sendgridBounce = (email = "example@test.com", type: "bounce" | "blocked" = "bounce", extra: object = {}) => ({
  ...common(email),
  event: "bounce",
  reason: type === "bounce" ? "500 unknown recipient" : "550 5.7.1 blocked by policy",
  status: "5.0.0",
  type,
  ...extra
})

/** A `dropped` event with SendGrid's reason (e.g. "Bounced Address", "Unsubscribed Address"). */
export const sendgridDropped = (email = "example@test.com", reason = "Bounced Address") => ({
  ...common(email),
  event: "dropped",
  reason,
  status: "5.0.0"
})

/** A `spamreport` event. */
export const sendgridSpamReport = (email = "example@test.com", extra: object = {}) => ({ ...common(email), event: "spamreport", ...extra })

/** The example batch of SendGrid's reference: one event of each kind. */
export const sendgridBatch = [
  { ...common("example@test.com"), event: "processed" },
  { ...common("example@test.com"), event: "deferred", response: "400 try again later", attempt: "5" },
  { ...common("example@test.com"), event: "delivered", response: "250 OK" },
  { ...common("example@test.com"), event: "open", useragent: "Mozilla/4.0", ip: "255.255.255.255" },
  { ...common("example@test.com"), event: "click", useragent: "Mozilla/4.0", ip: "255.255.255.255", url: "http://www.sendgrid.com/" },
  sendgridBounce("bounced@test.com"),
  sendgridBounce("blocked@test.com", "blocked"),
  sendgridDropped("dropped@test.com"),
  sendgridSpamReport("spam@test.com"),
  { ...common("example@test.com"), event: "unsubscribe" },
  { ...common("example@test.com"), event: "group_unsubscribe", asm_group_id: 10 },
  { ...common("example@test.com"), event: "group_resubscribe", asm_group_id: 10 }
]
