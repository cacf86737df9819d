import { Effect, Option, Schema } from "effect"
import { compileCampaign } from "../domain/CampaignMail.js"
import { normalizeEmail } from "../domain/Email.js"
import { CampaignId } from "../domain/Ids.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { Mailer } from "../ports/Mailer.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { AppUrl } from "./AppUrl.js"

const Payload = Schema.Struct({ campaignId: CampaignId, emails: Schema.Array(Schema.String) })

/** Test mails of a campaign: `[Test] ` subject, personalised from the list's subscriber with that address, not counted. */
export class CampaignTestMails extends Effect.Service<CampaignTestMails>()("@mailroom/CampaignTestMails", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const subscribers = yield* SubscriberRepository
    const appUrl = yield* AppUrl

    /** Sends the test mails of a queued job (nothing when the campaign or its list is gone). */
    const deliver = Effect.fn("CampaignTestMails.deliver")(function*(payload: unknown) {
      const { campaignId, emails } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
      const campaign = yield* campaigns.findById(campaignId)
      if (Option.isNone(campaign) || campaign.value.emailListId === null) return
      const list = yield* lists.findById(campaign.value.emailListId)
      if (Option.isNone(list)) return
      const { value: c } = campaign
      const mail = compileCampaign(c.html ?? "", `[Test] ${c.subject ?? c.name}`, {
        appUrl,
        campaignUuid: c.uuid,
        campaignName: c.name,
        listUuid: list.value.uuid,
        listName: list.value.name,
        trackOpens: false,
        utmTags: c.utmTags
      })
      const mailer = yield* Mailer
      for (const email of emails) {
        const subscriber = yield* subscribers.findByEmail(list.value.id, normalizeEmail(email))
        const recipient = Option.match(subscriber, {
          onNone: () => ({ uuid: "", email, firstName: null, lastName: null, extraAttributes: {} }),
          onSome: (s) => s
        })
        const rendered = mail.render({ sendUuid: "test", signature: "test", recipient })
        yield* mailer.send({
          from: { email: c.fromEmail ?? list.value.defaultFromEmail, name: c.fromName ?? list.value.defaultFromName },
          to: { email, name: null },
          subject: rendered.subject,
          html: rendered.html,
          ...(rendered.text === undefined ? {} : { text: rendered.text }),
          headers: { "X-Mailroom-Test": "true" }
        })
      }
    })

    return { deliver } as const
  })
}) {}
