import type { Mailer } from "@mailroom/core"
import { OutboxMailer, SmtpMailer } from "@mailroom/smtp"
import type { Layer } from "effect"

/** SMTP when SMTP_URL is set, else .eml files in the outbox directory (./data/outbox by default). */
export const mailerFromConfig = (config: { readonly smtpUrl: string | null; readonly outboxDirectory: string }): Layer.Layer<Mailer> =>
  config.smtpUrl === null ? OutboxMailer({ directory: config.outboxDirectory }) : SmtpMailer({ url: config.smtpUrl })
