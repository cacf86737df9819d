import type { Mailer } from "@mailroom/core"
import { type DkimKey, OutboxMailer, SmtpMailer } from "@mailroom/smtp"
import type { Layer } from "effect"

/** SMTP when SMTP_URL is set (mails DKIM-signed with the configured keys), else .eml files in the outbox directory. */
export const mailerFromConfig = (config: {
  readonly smtpUrl: string | null
  readonly outboxDirectory: string
  readonly dkim: ReadonlyArray<DkimKey>
}): Layer.Layer<Mailer> =>
  config.smtpUrl === null
    ? OutboxMailer({ directory: config.outboxDirectory })
    : SmtpMailer({ url: config.smtpUrl, dkim: config.dkim })
