/** Postmark webhook examples (Postmark developer docs, "Bounce webhook" and "Spam complaint webhook"). */

/** Postmark's bounce webhook example, of the given type. */
export const postmarkBounce = (options: {
  readonly type?: string
  readonly typeCode?: number
  readonly email?: string
  readonly metadata?: Record<string, string>
} = {}) => ({
  RecordType: "Bounce",
  MessageStream: "outbound",
  ID: 4323372036854775807,
  Type: options.type ?? "HardBounce",
  TypeCode: options.typeCode ?? 1,
  Name: "Hard bounce",
  Tag: "Test",
  MessageID: "883953f4-6105-42a2-a16a-77a8eac79483",
  Metadata: options.metadata ?? { a_key: "a_value", b_key: "b_value" },
  ServerID: 23,
  Description: "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
  Details: "Test bounce details",
  Email: options.email ?? "john@example.com",
  From: "sender@example.com",
  BouncedAt: "2019-11-05T16:33:54.9070259Z",
  DumpAvailable: true,
  Inactive: true,
  CanActivate: true,
  Subject: "Test subject",
  Content: "<Full dump of bounce>"
})

/** Postmark's spam complaint webhook example. */
export const postmarkSpamComplaint = (options: { readonly email?: string; readonly metadata?: Record<string, string> } = {}) => ({
  RecordType: "SpamComplaint",
  MessageStream: "outbound",
  ID: 42,
  Type: "SpamComplaint",
  TypeCode: 100001,
  Name: "Spam complaint",
  Tag: "Test",
  MessageID: "00000000-0000-0000-0000-000000000000",
  Metadata: options.metadata ?? { a_key: "a_value", b_key: "b_value" },
  ServerID: 1234,
  Description: "",
  Details: "Test spam complaint details",
  Email: options.email ?? "john@example.com",
  From: "sender@example.com",
  BouncedAt: "2019-11-05T16:33:54.9070259Z",
  DumpAvailable: true,
  Inactive: true,
  CanActivate: false,
  Subject: "Test subject",
  Content: "<Abuse report dump>"
})

/** Postmark's delivery webhook example (not feedback). */
export const postmarkDelivery = {
  RecordType: "Delivery",
  ServerID: 23,
  MessageStream: "outbound",
  MessageID: "00000000-0000-0000-0000-000000000000",
  Recipient: "john@example.com",
  Tag: "welcome-email",
  DeliveredAt: "2019-11-05T16:33:54.9070259Z",
  Details: "Test delivery webhook details",
  Metadata: { a_key: "a_value", b_key: "b_value" }
}
