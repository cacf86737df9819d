import type { MailMessage } from "../ports/Mailer.js"
import { trackableLinks } from "../sending/links.js"
import { envelopeSender } from "../sending/MailIdentity.js"
import type { publicLinks, SignedSend } from "../sending/PublicLinks.js"
import { trackHtml } from "../sending/trackHtml.js"
import type { TransactionalMail } from "./TransactionalMail.js"

/** How many links of a mail are click-tracked (their tokens are made for indexes 1..n). */
export const trackedLinkCount = (mail: TransactionalMail): number => (mail.trackClicks ? trackableLinks(mail.html).length : 0)

/**
 * The message of one send of a transactional mail: its addresses and files, its html with the open pixel and click
 * URLs of this send when the mail is tracked (`linkTokens[i]`: the signed token of link i + 1), the text as given (or
 * left to the transport to derive from the tracked html), and a Message-ID naming the send (`messageId`).
 */
export const transactionalMessage = (
  mail: TransactionalMail,
  send: SignedSend,
  options: {
    readonly links: ReturnType<typeof publicLinks>
    readonly linkTokens: ReadonlyArray<string>
    readonly messageId: string
    readonly bounceAddress: string | null
  }
): MailMessage => {
  const html = mail.trackOpens || mail.trackClicks
    ? trackHtml(mail.html, {
      pixelUrl: mail.trackOpens ? options.links.open(send) : null,
      clickUrl: mail.trackClicks ? (index) => options.links.click(send, options.linkTokens[index]!) : null
    })
    : mail.html
  const [to, ...moreTo] = mail.to
  return {
    from: mail.from,
    to: to!,
    moreTo,
    cc: mail.cc,
    bcc: mail.bcc,
    replyTo: mail.replyTo[0] ?? null,
    subject: mail.subject,
    html,
    ...(mail.text === null ? {} : { text: mail.text }),
    attachments: mail.attachments,
    headers: { "Message-ID": options.messageId, "X-Mailroom-Send": send.sendUuid },
    envelopeFrom: envelopeSender(options.bounceAddress, send.sendUuid)
  }
}

/** The Message-ID of a send: its uuid at the sender's domain. */
export const sendMessageId = (mail: TransactionalMail, sendUuid: string): string =>
  `<${sendUuid}@${mail.from.email.slice(mail.from.email.lastIndexOf("@") + 1) || "mailroom.invalid"}>`
