import type { MailAddress } from "../ports/Mailer.js"
import type { AutomationMail } from "./AutomationMail.js"
import type { AutomationSendList } from "./AutomationMailRepository.js"

/** The sender defaults of the list an automation mail goes to. */
export type SenderDefaults = Pick<AutomationSendList, "defaultFromEmail" | "defaultFromName" | "defaultReplyToEmail" | "defaultReplyToName">

/** An automation mail's From and Reply-To: its own, else its list's defaults (the From address else `fallbackFrom`). */
export const automationMailSender = (
  mail: AutomationMail,
  list: SenderDefaults | null,
  fallbackFrom: string
): { readonly from: MailAddress; readonly replyTo: MailAddress | null } => {
  const replyTo = mail.replyToEmail ?? list?.defaultReplyToEmail ?? null
  return {
    from: { email: mail.fromEmail ?? list?.defaultFromEmail ?? fallbackFrom, name: mail.fromName ?? list?.defaultFromName ?? null },
    replyTo: replyTo === null ? null : { email: replyTo, name: mail.replyToEmail === null ? list?.defaultReplyToName ?? null : mail.replyToName }
  }
}
