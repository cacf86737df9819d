import { Effect, Option, Schema } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { CampaignId, newUuid } from "../domain/Ids.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileMail } from "../sending/CompiledMail.js"
import { trackableLinks } from "../sending/links.js"
import type { Recipient } from "../sending/mailScope.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { UrlSigner } from "./UrlSigner.js"

const Payload = Schema.Struct({ campaignId: CampaignId, emails: Schema.Array(Schema.String) })

/** Who a test mail is for when the list has no subscriber with its address: sample values. */
const sample = (email: string): Recipient => ({
  uuid: "00000000-0000-4000-8000-000000000000",
  email,
  firstName: "Jane",
  lastName: "Doe",
  extraAttributes: {}
})

/**
 * Test mails of a campaign: real mails with the campaign's headers and link shapes (tracked links, open pixel,
 * List-Unsubscribe), a `[Test] ` subject, personalised from the list's subscriber with that address or sample values.
 * Each has its own signed id with no send behind it: nothing is counted, and its unsubscribe link opens a preview.
 */
export class CampaignTestMails extends Effect.Service<CampaignTestMails>()("@mailroom/CampaignTestMails", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const subscribers = yield* SubscriberRepository
    const links = yield* CampaignLinkRepository
    const signer = yield* UrlSigner
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity

    /** Sends the test mails of a queued job (nothing when the campaign or its list is gone). */
    const deliver = Effect.fn("CampaignTestMails.deliver")(function*(payload: unknown) {
      const { campaignId, emails } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
      const campaign = yield* campaigns.findById(campaignId)
      if (Option.isNone(campaign) || campaign.value.emailListId === null) return
      const list = yield* lists.findById(campaign.value.emailListId)
      if (Option.isNone(list)) return
      const { value: c } = campaign
      const html = translateLegacy(c.html ?? "")
      const tracked = c.trackClicks ? yield* links.ensure(c.id, trackableLinks(html)) : []
      const linkTokens = yield* signer.linkTokens(tracked)
      const mail = yield* Effect.try(() =>
        compileMail({
          html,
          subject: `[Test] ${c.subject ?? c.name}`,
          campaign: { uuid: c.uuid, name: c.name },
          list: { uuid: list.value.uuid, name: list.value.name },
          linkTokens,
          trackOpens: c.trackOpens,
          utmTags: c.utmTags,
          listHeaders: true,
          identity
        }, publicLinks)
      ).pipe(Effect.orDie)
      const mailer = yield* Mailer
      for (const email of emails) {
        const subscriber = yield* subscribers.findByEmail(list.value.id, normalizeEmail(email))
        const sendUuid = newUuid()
        const rendered = mail.render({
          sendUuid,
          signatures: yield* signer.signSend(sendUuid),
          recipient: Option.getOrElse(subscriber, (): Recipient => sample(email))
        })
        yield* mailer.send({
          from: { email: c.fromEmail ?? list.value.defaultFromEmail, name: c.fromName ?? list.value.defaultFromName },
          to: { email, name: null },
          replyTo: list.value.defaultReplyToEmail === null
            ? null
            : { email: list.value.defaultReplyToEmail, name: list.value.defaultReplyToName },
          subject: rendered.subject,
          html: rendered.html,
          ...(rendered.text === undefined ? {} : { text: rendered.text }),
          headers: { ...rendered.headers, "X-Mailroom-Test": "true" },
          envelopeFrom: rendered.envelopeFrom
        })
      }
    })

    return { deliver } as const
  })
}) {}
