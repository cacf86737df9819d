/** Amazon SES notification examples (SES developer guide, "Amazon SNS notification examples"), with SNS envelopes. */

/** The `mail` object of SES's examples; `headers` only when the identity includes original headers. */
export const sesMail = (headers: ReadonlyArray<{ readonly name: string; readonly value: string }> = []) => ({
  timestamp: "2016-01-27T14:59:38.237Z",
  source: "john@example.com",
  sourceArn: "arn:aws:ses:us-east-1:888888888888:identity/example.com",
  sourceIp: "127.0.3.0",
  sendingAccountId: "123456789012",
  callerIdentity: "IAM_user_or_role_name",
  messageId: "00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000",
  destination: ["jane@example.com", "mary@example.com", "richard@example.com"],
  headersTruncated: false,
  headers: [
    { name: "From", value: "\"John Doe\" <john@example.com>" },
    { name: "To", value: "\"Jane Doe\" <jane@example.com>, \"Mary Doe\" <mary@example.com>, \"Richard Doe\" <richard@example.com>" },
    { name: "Message-ID", value: "custom-message-ID" },
    { name: "Subject", value: "Hello" },
    { name: "Content-Type", value: "text/plain; charset=\"UTF-8\"" },
    { name: "Content-Transfer-Encoding", value: "base64" },
    { name: "Date", value: "Wed, 27 Jan 2016 14:05:45 +0000" },
    ...headers
  ],
  commonHeaders: {
    from: ["John Doe <john@example.com>"],
    date: "Wed, 27 Jan 2016 14:05:45 +0000",
    to: ["Jane Doe <jane@example.com>, Mary Doe <mary@example.com>, Richard Doe <richard@example.com>"],
    messageId: "custom-message-ID",
    subject: "Hello"
  }
})

/** SES's bounce notification example (a permanent bounce of one recipient). */
export const sesBounce = (options: {
  readonly bounceType?: string
  readonly recipients?: ReadonlyArray<string>
  readonly mail?: object
} = {}) => ({
  notificationType: "Bounce",
  bounce: {
    bounceType: options.bounceType ?? "Permanent",
    reportingMTA: "dns; email.example.com",
    bouncedRecipients: (options.recipients ?? ["jane@example.com"]).map((emailAddress) => ({
      emailAddress,
      status: "5.1.1",
      action: "failed",
      diagnosticCode: `smtp; 550 5.1.1 <${emailAddress}>... User`
    })),
    bounceSubType: "General",
    timestamp: "2016-01-27T14:59:38.237Z",
    feedbackId: "00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000",
    remoteMtaIp: "127.0.2.0"
  },
  mail: options.mail ?? sesMail()
})

/** SES's complaint notification example (with a user agent and feedback type). */
export const sesComplaint = (options: { readonly recipients?: ReadonlyArray<string>; readonly mail?: object; readonly feedbackType?: string } = {}) => ({
  notificationType: "Complaint",
  complaint: {
    userAgent: "AnyCompany Feedback Loop (V0.01)",
    complainedRecipients: (options.recipients ?? ["richard@example.com"]).map((emailAddress) => ({ emailAddress })),
    complaintFeedbackType: options.feedbackType ?? "abuse",
    arrivalDate: "2016-01-27T14:59:38.237Z",
    timestamp: "2016-01-27T14:59:38.237Z",
    feedbackId: "000001378603177f-18c07c78-fa81-4a58-9dd1-fedc3cb8f49a-000000"
  },
  mail: options.mail ?? sesMail()
})

/** SES's delivery notification example (not feedback). */
export const sesDelivery = {
  notificationType: "Delivery",
  mail: sesMail(),
  delivery: {
    timestamp: "2016-01-27T14:59:38.237Z",
    recipients: ["jane@example.com"],
    processingTimeMillis: 546,
    reportingMTA: "a8-70.smtp-out.amazonses.com",
    smtpResponse: "250 ok:  Message 64111812 accepted",
    remoteMtaIp: "127.0.2.0"
  }
}

/** An SNS Notification envelope (SNS developer guide, "HTTP/HTTPS notification JSON format"), unsigned. */
export const snsNotification = (message: string, topicArn = "arn:aws:sns:us-west-2:123456789012:MyTopic") => ({
  Type: "Notification",
  MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
  TopicArn: topicArn,
  Subject: "Amazon SES Email Event Notification",
  Message: message,
  Timestamp: "2012-05-02T00:54:06.655Z",
  SignatureVersion: "1",
  Signature: "",
  SigningCertURL: "https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem",
  UnsubscribeURL: "https://sns.us-west-2.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=arn:aws:sns:us-west-2:123456789012:MyTopic:c9135db0-26c4-47ec-8998-413945fb5a96"
})

/** An SNS SubscriptionConfirmation envelope (SNS developer guide, "HTTP/HTTPS subscription confirmation JSON format"), unsigned. */
export const snsSubscriptionConfirmation = (
  subscribeUrl = "https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-west-2:123456789012:MyTopic&Token=2336412f37",
  topicArn = "arn:aws:sns:us-west-2:123456789012:MyTopic"
) => ({
  Type: "SubscriptionConfirmation",
  MessageId: "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
  Token: "2336412f37",
  TopicArn: topicArn,
  Message: `You have chosen to subscribe to the topic ${topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
  SubscribeURL: subscribeUrl,
  Timestamp: "2012-04-26T20:45:04.751Z",
  SignatureVersion: "1",
  Signature: "",
  SigningCertURL: "https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem"
})
