import { Effect, Option } from "effect"
import { newUuid } from "../domain/Ids.js"
import type { MailAddress, Mailer } from "../ports/Mailer.js"
import type { CompiledMail } from "../sending/CompiledMail.js"
import type { Recipient } from "../sending/mailScope.js"
import type { UrlSigner } from "./UrlSigner.js"

/** Who a test mail (or a preview) is for when no subscriber has its address: sample values. */
export const sampleRecipient = (email: string): Recipient => ({
  uuid: "00000000-0000-4000-8000-000000000000",
  email,
  firstName: "Jane",
  lastName: "Doe",
  extraAttributes: {}
})

/** The sender of a test mail. */
export interface TestMailSender {
  readonly from: MailAddress
  readonly replyTo: MailAddress | null
}

/**
 * Sends a test mail of a compiled campaign-shaped mail to `email`, marked `X-Mailroom-Test`: personalised from
 * `subscriber` or sample values, with its own signed id and no send behind it (nothing is counted).
 */
export const sendTestMail = (
  services: { readonly mailer: Mailer["Type"]; readonly signer: UrlSigner },
  mail: CompiledMail,
  email: string,
  subscriber: Option.Option<Recipient>,
  sender: TestMailSender
) =>
  Effect.gen(function*() {
    const sendUuid = newUuid()
    const rendered = mail.render({
      sendUuid,
      signatures: yield* services.signer.signSend(sendUuid),
      recipient: Option.getOrElse(subscriber, (): Recipient => sampleRecipient(email))
    })
    yield* services.mailer.send({
      from: sender.from,
      to: { email, name: null },
      replyTo: sender.replyTo,
      subject: rendered.subject,
      html: rendered.html,
      ...(rendered.text === undefined ? {} : { text: rendered.text }),
      headers: { ...rendered.headers, "X-Mailroom-Test": "true" },
      envelopeFrom: rendered.envelopeFrom
    })
  })
