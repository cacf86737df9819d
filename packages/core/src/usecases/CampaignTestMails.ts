import { Effect, Option, Schema } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { CampaignId } from "../domain/Ids.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileContent } from "../sending/compileContent.js"
import { trackableLinks } from "../sending/links.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { sendTestMail } from "./sendTestMail.js"
import { UrlSigner } from "./UrlSigner.js"

const Payload = Schema.Struct({ campaignId: CampaignId, emails: Schema.Array(Schema.String) })

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
        compileContent(c, html, {
          list: { uuid: list.value.uuid, name: list.value.name },
          linkTokens,
          identity,
          publicLinks,
          subjectPrefix: "[Test] "
        })
      ).pipe(Effect.orDie)
      const mailer = yield* Mailer
      for (const email of emails) {
        const subscriber = yield* subscribers.findByEmail(list.value.id, normalizeEmail(email))
        yield* sendTestMail({ mailer, signer }, mail, email, subscriber, {
          from: { email: c.fromEmail ?? list.value.defaultFromEmail, name: c.fromName ?? list.value.defaultFromName },
          replyTo: list.value.defaultReplyToEmail === null
            ? null
            : { email: list.value.defaultReplyToEmail, name: list.value.defaultReplyToName }
        })
      }
    })

    return { deliver } as const
  })
}) {}
