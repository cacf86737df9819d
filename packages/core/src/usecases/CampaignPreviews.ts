import { Effect, Option } from "effect"
import type { CampaignPreviewInput } from "../domain/CampaignPreviewInput.js"
import type { EmailList } from "../domain/EmailList.js"
import type { EmailListUuid, SubscriberUuid, TemplateUuid } from "../domain/Ids.js"
import type { Subscriber } from "../domain/Subscriber.js"
import { ValidationError } from "../errors/ValidationError.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { compileContent, type MailContent } from "../sending/compileContent.js"
import { trackableLinks } from "../sending/links.js"
import { MailIdentity } from "../sending/MailIdentity.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import { findByRef, parseUuid } from "./lookup.js"
import { mailContentHtml } from "./mailContentHtml.js"
import { MarkdownRenderer } from "./MarkdownRenderer.js"
import { sampleRecipient } from "./sendTestMail.js"
import { UrlSigner } from "./UrlSigner.js"

/** A preview: the subject and the whole html of the mail as one recipient would get it. */
export interface CampaignPreview {
  readonly subject: string
  readonly html: string
}

/** The address of the sample recipient of previews without a subscriber. */
const SAMPLE_EMAIL = "jane.doe@example.com"

/** The first line of why a mail could not be compiled or rendered. */
const problemOf = (error: unknown): string => (error instanceof Error ? error.message.split("\n")[0]! : String(error))

/**
 * Previews of campaign mails, compiled and rendered by the same code as sends and test mails, for one subscriber or
 * sample values. Nothing is written: tracked links get placeholder ids (their click URLs lead nowhere) and the mail's
 * signatures belong to a send that does not exist.
 */
export class CampaignPreviews extends Effect.Service<CampaignPreviews>()("@mailroom/CampaignPreviews", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const subscribers = yield* SubscriberRepository
    const templates = yield* TemplateRepository
    const markdown = yield* MarkdownRenderer
    const signer = yield* UrlSigner
    const publicLinks = yield* PublicLinks
    const identity = yield* MailIdentity

    const byUuid = <A>(ref: string | undefined, find: (uuid: never) => Effect.Effect<Option.Option<A>>) =>
      ref === undefined
        ? Effect.succeed(Option.none<A>())
        : Option.match(parseUuid(ref.trim()), { onNone: () => Effect.succeed(Option.none<A>()), onSome: (uuid) => find(uuid as never) })

    /** The subscriber whose values fill the mail: none for sample values; a 422 unless found (and on the list). */
    const recipientOf = (subscriberUuid: string | undefined, list: Option.Option<EmailList>) =>
      Effect.gen(function*() {
        if (subscriberUuid === undefined) return Option.none<Subscriber>()
        const found = yield* byUuid(subscriberUuid, (uuid: SubscriberUuid) => subscribers.findByUuid(uuid))
        if (Option.isNone(found) || (Option.isSome(list) && found.value.emailListId !== list.value.id)) {
          return yield* ValidationError.field("subscriber_uuid", "The selected subscriber uuid is invalid.")
        }
        return found
      })

    /** Compiles content as a send does and renders it for the recipient (or sample values). */
    const render = (
      content: MailContent & { readonly trackClicks: boolean },
      html: string,
      list: Option.Option<EmailList>,
      subscriber: Option.Option<Subscriber>
    ) =>
      Effect.gen(function*() {
        const source = translateLegacy(html)
        const tracked = content.trackClicks ? trackableLinks(source).map((url) => ({ id: 0, url })) : []
        const linkTokens = yield* signer.linkTokens(tracked)
        const sendUuid = "00000000-0000-4000-8000-000000000000"
        const signatures = yield* signer.signSend(sendUuid)
        const rendered = yield* Effect.try({
          try: () =>
            compileContent(content, source, {
              list: Option.getOrNull(Option.map(list, (l) => ({ uuid: l.uuid, name: l.name }))),
              linkTokens,
              identity,
              publicLinks
            }).render({ sendUuid, signatures, recipient: Option.getOrElse(subscriber, () => sampleRecipient(SAMPLE_EMAIL)) }),
          catch: (error) => ValidationError.field("html", problemOf(error))
        })
        return { subject: rendered.subject, html: rendered.html } satisfies CampaignPreview
      })

    /** Renders unsaved campaign content; unknown list, template or subscriber and invalid Liquid are 422s. */
    const preview = Effect.fn("CampaignPreviews.preview")(function*(input: CampaignPreviewInput) {
      const list = yield* byUuid(input.emailListUuid, (uuid: EmailListUuid) => lists.findByUuid(uuid))
      const template = yield* byUuid(input.templateUuid, (uuid: TemplateUuid) => templates.findByUuid(uuid))
      const errors: Record<string, Array<string>> = {}
      if (input.emailListUuid !== undefined && Option.isNone(list)) errors["email_list_uuid"] = ["The selected email list uuid is invalid."]
      if (input.templateUuid !== undefined && Option.isNone(template)) errors["template_uuid"] = ["The selected template uuid is invalid."]
      if (Object.keys(errors).length > 0) return yield* ValidationError.fromErrors(errors)
      const subscriber = yield* recipientOf(input.subscriberUuid, list)
      const { html } = yield* mailContentHtml(input, template, markdown)
      const mailList = Option.isSome(list) || Option.isNone(subscriber) ? list : yield* lists.findById(subscriber.value.emailListId)
      const name = input.name?.trim() || "Preview"
      return yield* render({
        uuid: "00000000-0000-4000-8000-000000000000",
        name,
        subject: input.subject ?? name,
        trackOpens: input.trackOpens ?? true,
        trackClicks: input.trackClicks ?? true,
        utmTags: input.utmTags ?? true
      }, html ?? "", mailList, subscriber)
    })

    /** Renders a saved campaign as its send would (NotFound for an unknown campaign). */
    const previewSaved = Effect.fn("CampaignPreviews.previewSaved")(function*(ref: string, subscriberUuid?: string) {
      const campaign = yield* findByRef("Campaign", ref, campaigns.findByUuid, campaigns.findById)
      const list = campaign.emailListId === null ? Option.none<EmailList>() : yield* lists.findById(campaign.emailListId)
      const subscriber = yield* recipientOf(subscriberUuid, list)
      return yield* render(campaign, campaign.emailHtml ?? campaign.html ?? "", list, subscriber)
    })

    return { preview, previewSaved } as const
  })
}) {}
