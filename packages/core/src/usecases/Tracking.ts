import { Effect, Option } from "effect"
import type { FeedbackInput } from "../domain/Feedback.js"
import type { CampaignLinkId, EmailListId } from "../domain/Ids.js"
import { NotFound } from "../errors/NotFound.js"
import type { Send } from "../domain/Send.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { TrackingRepository } from "../ports/TrackingRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { FeedbackIntake } from "../feedback/FeedbackIntake.js"
import { clickTarget, isPersonal, trackableLinks } from "../sending/links.js"
import { TransactionalMailRepository } from "../transactional/TransactionalMailRepository.js"
import { mailScope, type Recipient } from "../sending/mailScope.js"
import { type LinkPurpose, NO_SIGNATURES, PublicLinks } from "../sending/PublicLinks.js"
import { parseTemplate, renderTemplate } from "../sending/TemplateEngine.js"
import { makeMailEventRecorder } from "../events/recordMailEvent.js"
import { AutomationMailRepository } from "../automations/AutomationMailRepository.js"
import { orNotFound } from "./lookup.js"
import { signedSend } from "./signedSend.js"
import { now } from "./now.js"
import { UrlSigner } from "./UrlSigner.js"

/** What a personal link may name of its mail: a campaign, or an automation mail (no list of its own). */
interface LinkSource {
  readonly uuid: string
  readonly name: string
  readonly emailListId: EmailListId | null
}

/** Opens closer together than this count once (mail clients and proxies fetch images repeatedly). */
const OPEN_DEBOUNCE_MS = 5_000

/** Native tracking: open pixel, click redirects, one-click unsubscribe and provider feedback (bounces, complaints). */
export class Tracking extends Effect.Service<Tracking>()("@mailroom/Tracking", {
  effect: Effect.gen(function*() {
    const sends = yield* SendRepository
    const campaigns = yield* CampaignRepository
    const links = yield* CampaignLinkRepository
    const subscribers = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const tags = yield* TagRepository
    const tracking = yield* TrackingRepository
    const intake = yield* FeedbackIntake
    const signer = yield* UrlSigner
    const { withTransaction } = yield* Transactor
    const publicLinks = yield* PublicLinks
    const transactionalMails = yield* TransactionalMailRepository
    const automationMails = yield* AutomationMailRepository
    const checkLink = signedSend(signer, sends)
    const recordMailEvent = yield* makeMailEventRecorder

    /**
     * The send a link signed for `purpose` stands for: none for a test mail (its uuid has no send), NotFound when the
     * signature is not the send's for this purpose (nor, for a mail sent before purposes, its one old signature).
     */
    const verified = (purpose: LinkPurpose, sendUuid: string, signature: string, legacyOnly = false) =>
      Effect.flatMap(
        checkLink(purpose, sendUuid, signature, legacyOnly),
        ({ send, signed }) => (signed ? Effect.succeed(send) : NotFound.of("Link"))
      )

    /**
     * With `add_subscriber_tags`, tags the subscriber `campaign-<uuid>-opened` or `-clicked` (system tags); for an
     * automation mail `automation-mail-<uuid>-opened` or `-clicked`, in the subscriber's list.
     */
    const tagSubscriber = (send: Send, event: "opened" | "clicked", at: Date) =>
      Effect.gen(function*() {
        if (send.automationMailId !== null && send.subscriberId !== null) {
          const mail = yield* automationMails.findById(send.automationMailId)
          const subscriber = yield* subscribers.findById(send.subscriberId)
          if (Option.isNone(mail) || !mail.value.addSubscriberTags || Option.isNone(subscriber)) return
          const [tag] = yield* tags.ensure(subscriber.value.emailListId, [`automation-mail-${mail.value.uuid}-${event}`], "mailcoach", at)
          if (tag !== undefined) yield* subscribers.addTags(send.subscriberId, [tag.id])
          return
        }
        if (send.campaignId === null || send.subscriberId === null) return
        const campaign = yield* campaigns.findById(send.campaignId)
        if (Option.isNone(campaign) || !campaign.value.addSubscriberTags || campaign.value.emailListId === null) return
        const [tag] = yield* tags.ensure(campaign.value.emailListId, [`campaign-${campaign.value.uuid}-${event}`], "mailcoach", at)
        if (tag !== undefined) yield* subscribers.addTags(send.subscriberId, [tag.id])
      })

    const countOpen = (send: Send, at: Date) =>
      Effect.gen(function*() {
        const { counted, first } = yield* tracking.recordOpen(send.id, at, OPEN_DEBOUNCE_MS)
        if (counted && send.campaignId !== null) {
          yield* campaigns.addCounters(send.campaignId, { openCount: 1, uniqueOpenCount: first ? 1 : 0 }, at)
        }
        if (counted && send.automationMailId !== null) {
          yield* automationMails.addCounters(send.automationMailId, { openCount: 1, uniqueOpenCount: first ? 1 : 0 }, at)
        }
        if (counted) yield* recordMailEvent("mail.opened", send, at, { first })
        if (first) yield* tagSubscriber(send, "opened", at)
      })

    /** Records an open from the pixel; NotFound for a link not signed as this send's pixel. */
    const open = Effect.fn("Tracking.open")(function*(sendUuid: string, signature: string) {
      const send = yield* verified("open", sendUuid, signature)
      if (Option.isSome(send)) yield* withTransaction(Effect.flatMap(now, (at) => countOpen(send.value, at)))
    })

    /** Fills a personal link as written with the send's subscriber, campaign and list (blank for an unknown send). */
    const fill = (send: Option.Option<Send>, campaign: Option.Option<LinkSource>) => (written: string) =>
      Effect.gen(function*() {
        const subscriber = Option.isNone(send) || send.value.subscriberId === null
          ? Option.none()
          : yield* subscribers.findById(send.value.subscriberId)
        // an automation mail has no list of its own: its mails name their subscriber's
        const listId = Option.getOrNull(Option.flatMap(campaign, (c) => Option.fromNullable(c.emailListId))) ??
          Option.getOrNull(Option.map(subscriber, (s) => s.emailListId))
        const list = listId === null ? Option.none() : yield* lists.findById(listId)
        const scope = mailScope({
          campaign: Option.getOrNull(Option.map(campaign, (c) => ({ uuid: c.uuid, name: c.name }))),
          list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name })))
        }, {
          sendUuid: Option.match(send, { onNone: () => "", onSome: (s) => s.uuid }),
          signatures: NO_SIGNATURES,
          recipient: Option.getOrElse(subscriber, (): Recipient => ({ uuid: "", email: "", firstName: null, lastName: null, extraAttributes: {} }))
        }, publicLinks)
        return renderTemplate(parseTemplate(written, "raw"), scope)
      })

    /** A click on link `index` (1-based, in the mail's order) of a transactional mail's send: counted on the send. */
    const transactionalClick = (send: Send, index: number) =>
      Effect.gen(function*() {
        const mail = yield* transactionalMails.findById(send.transactionalMailId!).pipe(orNotFound("Link"))
        const written = trackableLinks(mail.html)[index - 1]
        const target = written === undefined ? null : clickTarget(written, { fill: (url) => url, utmCampaign: null })
        if (target === null) return yield* NotFound.of("Link")
        yield* withTransaction(Effect.gen(function*() {
          const at = yield* now
          if (send.openCount === 0) yield* countOpen(send, at)
          yield* transactionalMails.countClick(send.id, at)
          yield* recordMailEvent("mail.clicked", send, at, { url: written })
        }))
        return target
      })

    /** A click on a tracked link of an automation mail's send: counted on the send, the link and the mail. */
    const automationClick = (send: Send, linkId: number) =>
      Effect.gen(function*() {
        const link = yield* automationMails.findLink(linkId).pipe(orNotFound("Link"))
        if (link.automationMailId !== send.automationMailId) return yield* NotFound.of("Link")
        const mail = yield* automationMails.findById(link.automationMailId)
        const source = Option.map(mail, (m) => ({ uuid: m.uuid, name: m.name, emailListId: null }))
        const filled = isPersonal(link.url) ? yield* Effect.either(fill(Option.some(send), source)(link.url)) : null
        const target = clickTarget(link.url, {
          fill: () => (filled !== null && filled._tag === "Right" ? filled.right : ""),
          utmCampaign: Option.isSome(mail) && mail.value.utmTags ? mail.value.name : null
        })
        if (target === null) return yield* NotFound.of("Link")
        yield* withTransaction(Effect.gen(function*() {
          const at = yield* now
          const { firstForSend } = yield* automationMails.recordClick(send.id, link.id, at)
          // the open a click shows first, as for campaigns
          if (send.openCount === 0) yield* countOpen(send, at)
          yield* automationMails.addCounters(link.automationMailId, { clickCount: 1, uniqueClickCount: firstForSend ? 1 : 0 }, at)
          if (firstForSend) yield* tagSubscriber(send, "clicked", at)
          yield* recordMailEvent("mail.clicked", send, at, { url: link.url })
        }))
        return target
      })

    /**
     * Records a click (which implies an open) and returns where to redirect: the link as written, filled for the
     * send's subscriber when it is personal, with utm tags when the campaign adds them; NotFound for an unknown link.
     */
    const click = Effect.fn("Tracking.click")(function*(sendUuid: string, linkToken: string, signature: string) {
      // a signed link id; a bare one only in a mail sent before purposes, with its old signature
      const linkId = yield* signer.linkIdOf(linkToken)
      if (linkId === null) return yield* NotFound.of("Link")
      const sent = yield* verified("click", sendUuid, signature, !linkId.signed)
      if (Option.isSome(sent) && sent.value.transactionalMailId !== null) return yield* transactionalClick(sent.value, linkId.id)
      if (Option.isSome(sent) && sent.value.automationMailId !== null) return yield* automationClick(sent.value, linkId.id)
      const link = yield* links.findById(linkId.id as CampaignLinkId).pipe(orNotFound("Link"))
      if (Option.isSome(sent) && sent.value.campaignId !== link.campaignId) return yield* NotFound.of("Link")
      const campaign = yield* campaigns.findById(link.campaignId)
      const send = sent
      const filled = isPersonal(link.url) ? yield* Effect.either(fill(send, campaign)(link.url)) : null
      const target = clickTarget(link.url, {
        fill: () => (filled !== null && filled._tag === "Right" ? filled.right : ""),
        utmCampaign: Option.isSome(campaign) && campaign.value.utmTags ? campaign.value.name : null
      })
      if (target === null) return yield* NotFound.of("Link")
      if (Option.isNone(send)) return target
      yield* withTransaction(Effect.gen(function*() {
        const at = yield* now
        const { firstForSend } = yield* tracking.recordClick(send.value.id, link.id, at)
        // a click shows the mail was opened: counted first, so its tag is taken before the click's (a subscriber's
        // delete takes the older "opened" tag before "clicked"; the other order deadlocked with it)
        if (send.value.openCount === 0) yield* countOpen(send.value, at)
        yield* campaigns.addCounters(link.campaignId, { clickCount: 1, uniqueClickCount: firstForSend ? 1 : 0 }, at)
        if (firstForSend) yield* tagSubscriber(send.value, "clicked", at)
        yield* recordMailEvent("mail.clicked", send.value, at, { url: link.url })
      }))
      return target
    })

    /**
     * What the unsubscribe page shows: the list and address, and whether it is already unsubscribed; `preview` for the
     * signed link of a test mail (no send behind it: the page explains and changes nothing).
     */
    const unsubscribeInfo = Effect.fn("Tracking.unsubscribeInfo")(function*(sendUuid: string, signature: string) {
      const listed = yield* verified("unsubscribe", sendUuid, signature)
      if (Option.isNone(listed)) {
        return { email: "", listName: null, redirect: null, unsubscribed: false, preview: true }
      }
      const send = listed.value
      const subscriber = send.subscriberId === null ? Option.none() : yield* subscribers.findById(send.subscriberId)
      const list = Option.isNone(subscriber) ? Option.none() : yield* lists.findById(subscriber.value.emailListId)
      return {
        email: send.email,
        listName: Option.match(list, { onNone: () => null, onSome: (l) => l.name }),
        redirect: Option.match(list, { onNone: () => null, onSome: (l) => l.redirectAfterUnsubscribed }),
        unsubscribed: Option.match(subscriber, { onNone: () => true, onSome: (s) => subscriberStatus(s) !== "subscribed" }),
        preview: false
      }
    })

    /** Unsubscribes the send's subscriber and attributes it to the campaign or automation mail once; repeats are harmless. */
    const unsubscribeSend = (send: Send, at: Date) =>
      Effect.gen(function*() {
        if (send.subscriberId === null) return
        const subscriber = yield* subscribers.findById(send.subscriberId)
        if (Option.isNone(subscriber)) return
        if (subscriberStatus(subscriber.value) === "subscribed") {
          yield* subscribers.update(subscriber.value, { ...subscriber.value, unsubscribedAt: at, updatedAt: at })
        }
        if (send.automationMailId !== null) {
          const fresh = yield* automationMails.recordUnsubscribe({
            mailId: send.automationMailId,
            sendId: send.id,
            subscriberId: subscriber.value.id,
            email: send.email,
            at
          })
          if (fresh) yield* automationMails.addCounters(send.automationMailId, { unsubscribeCount: 1 }, at)
        }
        if (send.campaignId === null) return
        const fresh = yield* tracking.recordUnsubscribe({
          campaignId: send.campaignId,
          sendId: send.id,
          subscriberId: subscriber.value.id,
          email: send.email,
          at
        })
        if (fresh) yield* campaigns.addCounters(send.campaignId, { unsubscribeCount: 1 }, at)
      })

    /** The one-click unsubscribe (POST from the page or from the mail client, RFC 8058). */
    const unsubscribe = Effect.fn("Tracking.unsubscribe")(function*(sendUuid: string, signature: string) {
      const send = yield* verified("unsubscribe", sendUuid, signature)
      if (Option.isSome(send)) yield* withTransaction(Effect.flatMap(now, (at) => unsubscribeSend(send.value, at)))
      return yield* unsubscribeInfo(sendUuid, signature)
    })

    /**
     * A provider's bounce or complaint, for the named send or else the latest mail sent to the address, applied through
     * the one bounce policy (stored and counted; suppression and unsubscribes as the policy says).
     */
    const feedback = Effect.fn("Tracking.feedback")(function*(input: FeedbackInput) {
      yield* intake.record({ type: input.type, email: input.email, sendUuid: input.sendUuid ?? null, messageId: null })
    })

    return { open, click, unsubscribeInfo, unsubscribe, feedback } as const
  })
}) {}
