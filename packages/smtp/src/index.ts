export * from "./Dkim.js"
export * from "./OutboxMailer.js"
export * from "./SmtpMailer.js"
export * from "./SmtpUrl.js"
