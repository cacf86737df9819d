/** Mailgun webhook examples (Mailgun docs, "Webhooks": permanent and temporary failure, spam complaint). */

const signature = {
  timestamp: "1529006854",
  token: "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0",
  signature: "d2271d12299f6592d9d44cd9d250f0704e4674c30d79d07c47a66f95ce71cf55"
}

const message = (messageId: string) => ({
  headers: {
    "to": "Alice <alice@example.com>",
    "message-id": messageId,
    "from": "Bob <bob@sandbox.mailgun.org>",
    "subject": "Test permanent_fail webhook"
  },
  attachments: [],
  size: 111
})

/** Mailgun's `failed` example: permanent (`suppress-bounce`) or temporary (a full mailbox). */
export const mailgunFailed = (options: {
  readonly severity?: "permanent" | "temporary"
  readonly reason?: string
  readonly recipient?: string
  readonly messageId?: string
  readonly variables?: Record<string, string>
} = {}) => ({
  "signature": signature,
  "event-data": {
    "event": "failed",
    "id": "G9Bn5sl1TC6nu79C8C0bwg",
    "timestamp": 1521233195.375624,
    "log-level": options.severity === "temporary" ? "warning" : "error",
    "severity": options.severity ?? "permanent",
    "reason": options.reason ?? (options.severity === "temporary" ? "generic" : "suppress-bounce"),
    "envelope": { sender: "bob@sandbox.mailgun.org", transport: "smtp", targets: options.recipient ?? "alice@example.com" },
    "flags": { "is-routed": false, "is-authenticated": true, "is-system-test": false, "is-test-mode": false },
    "delivery-status": options.severity === "temporary"
      ? { "attempt-no": 1, "message": "4.2.2 The email account that you tried to reach is over quota.", "code": 452, "description": "", "session-seconds": 1.2 }
      : { "attempt-no": 1, "message": "", "code": 605, "description": "Not delivering to previously bounced address", "session-seconds": 0 },
    "message": message(options.messageId ?? "20130503192659.13651.20287@sandbox.mailgun.org"),
    "recipient": options.recipient ?? "alice@example.com",
    "recipient-domain": "example.com",
    "storage": { url: "https://se.api.mailgun.net/v3/domains/sandbox.mailgun.org/messages/message_key", key: "message_key" },
    "campaigns": [],
    "tags": ["my_tag_1", "my_tag_2"],
    "user-variables": options.variables ?? { "my_var_1": "Mailgun Variable #1", "my-var-2": "awesome" }
  }
})

/** Mailgun's `complained` example. */
export const mailgunComplained = (options: { readonly recipient?: string; readonly variables?: Record<string, string> } = {}) => ({
  "signature": signature,
  "event-data": {
    "event": "complained",
    "id": "-Agny091SquKnsrW2NEKUA",
    "timestamp": 1521233123.501324,
    "log-level": "warn",
    "envelope": { "sending-ip": "173.193.210.33" },
    "flags": { "is-test-mode": false },
    "message": message("20110215055645.25246.63817@sandbox.mailgun.org"),
    "recipient": options.recipient ?? "alice@example.com",
    "campaigns": [],
    "tags": ["my_tag_1", "my_tag_2"],
    "user-variables": options.variables ?? { "my_var_1": "Mailgun Variable #1", "my-var-2": "awesome" }
  }
})

/** Mailgun's `delivered` example (not feedback). */
export const mailgunDelivered = {
  "signature": signature,
  "event-data": {
    "event": "delivered",
    "id": "CPgfbmQMTCKtHW6uIWtuVe",
    "timestamp": 1521472262.908181,
    "log-level": "info",
    "recipient": "alice@example.com",
    "message": message("20130503182626.18666.16540@sandbox.mailgun.org")
  }
}
