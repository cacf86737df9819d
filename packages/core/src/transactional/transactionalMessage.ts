import type { MailMessage } from "../ports/Mailer.js"
import { trackableLinks } from "../sending/links.js"
import { envelopeSender } from "../sending/MailIdentity.js"
import type { publicLinks, SignedSend } from "../sending/PublicLinks.js"
import { trackHtml } from "../sending/trackHtml.js"
import type { TransactionalMail } from "./TransactionalMail.js"

/**
 * The click-tracked links of a mail, as written, each with its link id: its place in the mail's own order (1-based),
 * which is how a click finds it again (Tracking reads `trackableLinks` of the stored html).
 */
export const trackedLinks = (mail: TransactionalMail): Array<{ readonly id: number; readonly url: string }> =>
  mail.trackClicks ? trackableLinks(mail.html).map((url, index) => ({ id: index + 1, url })) : []

/**
 * The message of one send of a transactional mail: its addresses and files, its html with the open pixel and click
 * URLs of this send when the mail is tracked (`linkTokens`: the signed token of each tracked link, by the link as
 * written), the text as given (or left to the transport to derive from the tracked html), and a Message-ID naming the
 * send (`messageId`).
 */
export const transactionalMessage = (
  mail: TransactionalMail,
  send: SignedSend,
  options: {
    readonly links: ReturnType<typeof publicLinks>
    readonly linkTokens: ReadonlyMap<string, string>
    readonly messageId: string
    readonly bounceAddress: string | null
  }
): MailMessage => {
  const html = mail.trackOpens || mail.trackClicks
    ? trackHtml(mail.html, {
      pixelUrl: mail.trackOpens ? options.links.open(send) : null,
      clickUrl: (url) => {
        const token = options.linkTokens.get(url)
        return token === undefined ? null : options.links.click(send, token)
      }
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
