import { Effect, Option } from "effect"
import type { CampaignUuid } from "../domain/Ids.js"
import { NotFound } from "../errors/NotFound.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { compileMail } from "../sending/CompiledMail.js"
import type { Recipient } from "../sending/mailScope.js"
import { NO_SIGNATURES, PublicLinks } from "../sending/PublicLinks.js"
import { webDocument } from "../sending/webDocument.js"
import { parseUuid } from "./lookup.js"
import { signedSend } from "./signedSend.js"
import { UrlSigner } from "./UrlSigner.js"
import type { Subscriber } from "../domain/Subscriber.js"
import type { AutomationMailUuid } from "../automations/AutomationIds.js"
import type { AutomationMail } from "../automations/AutomationMail.js"
import { AutomationMailRepository } from "../automations/AutomationMailRepository.js"

/** A reader nobody knows: the values of a web view opened without a mail's signed link. */
const NEUTRAL: Recipient = { uuid: "", email: "", firstName: null, lastName: null, extraAttributes: {} }

/**
 * The web version of campaigns and automation mails (their mails' web view links name the mail's uuid in the same
 * place): a whole page, personal for the reader of a mail's signed link, neutral otherwise.
 */
export class WebViews extends Effect.Service<WebViews>()("@mailroom/WebViews", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const sends = yield* SendRepository
    const subscribers = yield* SubscriberRepository
    const signer = yield* UrlSigner
    const links = yield* PublicLinks
    const automationMails = yield* AutomationMailRepository
    const checkLink = signedSend(signer, sends)

    /**
     * The reader a web view link names: the subscriber of a mail of this campaign, none when the subscriber or the
     * send is gone (a neutral page), a NotFound when the link is not signed for the web view.
     */
    const reader = (owner: { readonly campaignId: number } | { readonly automationMailId: number }, sendUuid: string, signature: string) =>
      Effect.gen(function*() {
        const { send, signed } = yield* checkLink("webview", sendUuid, signature)
        if (!signed) return yield* NotFound.of("Campaign")
        const ours = Option.isSome(send) && ("campaignId" in owner
          ? send.value.campaignId === owner.campaignId
          : send.value.automationMailId === owner.automationMailId)
        if (Option.isNone(send) || !ours || send.value.subscriberId === null) {
          return Option.none<Subscriber>()
        }
        return yield* subscribers.findById(send.value.subscriberId)
      })

    /**
     * The page of an automation mail once any of its mails went out: for a send's reader of the signed link, filled
     * for that reader (their list named), else with neutral values.
     */
    const automationMail = (m: AutomationMail, sendUuid?: string, signature?: string) =>
      Effect.gen(function*() {
        if (m.sentToNumberOfSubscribers === 0) return yield* NotFound.of("Campaign")
        const recipient = sendUuid === undefined || signature === undefined
          ? Option.none()
          : yield* reader({ automationMailId: m.id }, sendUuid, signature)
        const list = Option.isNone(recipient) ? Option.none() : yield* lists.findById(recipient.value.emailListId)
        const signatures = Option.isSome(recipient) ? yield* signer.signSend(sendUuid!) : NO_SIGNATURES
        const rendered = yield* Effect.try(() =>
          compileMail({
            html: m.webviewHtml ?? m.html ?? "",
            subject: m.subject ?? m.name,
            campaign: { uuid: m.uuid, name: m.name },
            list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name }))),
            linkTokens: new Map(),
            trackOpens: false,
            utmTags: m.utmTags,
            listHeaders: false
          }, links).render({
            sendUuid: Option.isSome(recipient) ? sendUuid! : "",
            signatures,
            recipient: Option.getOrElse(recipient, (): Recipient => NEUTRAL)
          })
        ).pipe(Effect.mapError(() => new NotFound({ message: "Campaign not found." })))
        return webDocument(rendered.html, rendered.subject)
      })

    /**
     * The page of a campaign that went out (drafts are not public, `disable_webview` hides it): with a send's signed
     * link its placeholders are filled for that reader, else with neutral (empty) values.
     */
    const campaign = Effect.fn("WebViews.campaign")(function*(campaignUuid: string, sendUuid?: string, signature?: string) {
      const uuid = parseUuid(campaignUuid)
      const found = Option.isNone(uuid) ? Option.none() : yield* campaigns.findByUuid(uuid.value as CampaignUuid)
      if (Option.isNone(found) && Option.isSome(uuid)) {
        const mail = yield* automationMails.findByUuid(uuid.value as AutomationMailUuid)
        if (Option.isSome(mail)) return yield* automationMail(mail.value, sendUuid, signature)
      }
      if (Option.isNone(found) || ["draft", "scheduled"].includes(found.value.status) || found.value.disableWebview) {
        return yield* NotFound.of("Campaign")
      }
      const c = found.value
      const list = c.emailListId === null ? Option.none() : yield* lists.findById(c.emailListId)
      const recipient = sendUuid === undefined || signature === undefined
        ? Option.none<Recipient>()
        : yield* reader({ campaignId: c.id }, sendUuid, signature)
      // the reader's own mail, links included (the web view link proved it is theirs)
      const signatures = Option.isSome(recipient) ? yield* signer.signSend(sendUuid!) : NO_SIGNATURES
      const rendered = yield* Effect.try(() =>
        compileMail({
          html: c.webviewHtml ?? c.html ?? "",
          subject: c.subject ?? c.name,
          campaign: { uuid: c.uuid, name: c.name },
          list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name }))),
          linkTokens: new Map(),
          trackOpens: false,
          utmTags: c.utmTags,
          listHeaders: false
        }, links).render({
          sendUuid: Option.isSome(recipient) ? sendUuid! : "",
          signatures,
          recipient: Option.getOrElse(recipient, () => NEUTRAL)
        })
      ).pipe(Effect.mapError(() => new NotFound({ message: "Campaign not found." })))
      return webDocument(rendered.html, rendered.subject)
    })

    return { campaign } as const
  })
}) {}
