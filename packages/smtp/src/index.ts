export * from "./OutboxMailer.js"
export * from "./SmtpMailer.js"
