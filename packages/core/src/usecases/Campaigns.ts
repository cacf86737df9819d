import { Effect, Option } from "effect"
import type { Campaign } from "../domain/Campaign.js"
import type { CampaignInput } from "../domain/CampaignInput.js"
import { isEditable } from "../domain/CampaignStatus.js"
import type { CampaignQuery } from "../domain/Collections.js"
import { type CampaignUuid, newUuid } from "../domain/Ids.js"
import { zeroMailCounters } from "../domain/zeroMailCounters.js"
import { ValidationError } from "../errors/ValidationError.js"
import { type CampaignContent, CampaignRepository, type ListedCampaign } from "../ports/CampaignRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { findByRef, orNotFound, parseIntId, parseUuid } from "./lookup.js"
import { mailContentHtml } from "./mailContentHtml.js"
import { MarkdownRenderer } from "./MarkdownRenderer.js"
import { now } from "./now.js"

/** Campaigns: create, edit while draft or scheduled, list, delete. Sending lives in CampaignActions. */
export class Campaigns extends Effect.Service<Campaigns>()("@mailroom/Campaigns", {
  effect: Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const templates = yield* TemplateRepository
    const markdown = yield* MarkdownRenderer

    const find = (ref: string) => findByRef("Campaign", ref, repo.findByUuid, repo.findById)
    const uuidOf = <A extends { readonly uuid: string }>(id: number | null, lookup: (id: never) => Effect.Effect<Option.Option<A>>) =>
      id === null ? Effect.succeed(null) : Effect.map(lookup(id as never), Option.match({ onNone: () => null, onSome: (a) => a.uuid }))
    const view = (campaign: Campaign) =>
      Effect.map(
        Effect.all([
          uuidOf(campaign.emailListId, lists.findById),
          uuidOf(campaign.templateId, templates.findById),
          uuidOf(campaign.segmentId, segments.findById)
        ]),
        ([emailListUuid, templateUuid, segmentUuid]): ListedCampaign => ({ campaign, emailListUuid, templateUuid, segmentUuid })
      )

    /** Validates references and applies the defaults of a full-replace body. */
    const contentOf = (input: CampaignInput) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const listRef = input.emailListUuid.trim()
        const list = yield* Option.match(parseUuid(listRef), {
          onSome: (uuid) => lists.findByUuid(uuid as never),
          onNone: () => Option.match(parseIntId(listRef), { onSome: (id) => lists.findById(id as never), onNone: () => Effect.succeedNone })
        })
        if (Option.isNone(list)) errors["email_list_uuid"] = ["The selected email list uuid is invalid."]
        const segment = input.segmentUuid === undefined || Option.isNone(parseUuid(input.segmentUuid))
          ? Option.none()
          : yield* segments.findByUuid(parseUuid(input.segmentUuid).pipe(Option.getOrThrow) as never)
        if (
          input.segmentUuid !== undefined &&
          (Option.isNone(segment) || (Option.isSome(list) && segment.value.emailListId !== list.value.id))
        ) errors["segment_uuid"] = ["The selected segment uuid is invalid."]
        if (Object.keys(errors).length > 0) return yield* ValidationError.fromErrors(errors)
        const template = input.templateUuid === undefined || Option.isNone(parseUuid(input.templateUuid))
          ? Option.none()
          : yield* templates.findByUuid(parseUuid(input.templateUuid).pipe(Option.getOrThrow) as never)
        const { fields, html } = yield* mailContentHtml(input, template, markdown)
        const content: CampaignContent = {
          name: input.name.trim(),
          emailListId: Option.getOrThrow(list).id,
          templateId: Option.match(template, { onNone: () => null, onSome: (t) => t.id }),
          segmentId: Option.match(segment, { onNone: () => null, onSome: (s) => s.id }),
          subject: input.subject ?? input.name.trim(),
          html,
          structuredHtml: input.structuredHtml ?? null,
          fields,
          emailHtml: null,
          webviewHtml: null,
          mailableClass: input.mailableClass ?? null,
          fromEmail: input.fromEmail?.trim() ?? null,
          fromName: input.fromName ?? null,
          replyToEmail: null,
          replyToName: null,
          segmentDescription: Option.match(segment, { onNone: () => "all subscribers", onSome: (s) => s.name }),
          utmTags: input.utmTags ?? true,
          trackOpens: input.trackOpens ?? true,
          trackClicks: input.trackClicks ?? true,
          addSubscriberTags: input.addSubscriberTags ?? false,
          addSubscriberLinkTags: input.addSubscriberLinkTags ?? false,
          disableWebview: input.disableWebview ?? false,
          scheduledAt: input.scheduleAt === undefined ? null : new Date(`${input.scheduleAt.replace(" ", "T")}Z`),
          updatedAt: yield* now
        }
        return content
      })

    const list = Effect.fn("Campaigns.list")(function*(query: CampaignQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("Campaigns.get")(function*(ref: string) {
      return yield* Effect.flatMap(find(ref), view)
    })

    /** Creates a draft, or a scheduled campaign when `schedule_at` is given. */
    const create = Effect.fn("Campaigns.create")(function*(input: CampaignInput) {
      const content = yield* contentOf(input)
      const campaign = yield* repo.insert({
        ...content,
        uuid: newUuid() as CampaignUuid,
        status: content.scheduledAt === null ? "draft" : "scheduled",
        ...zeroMailCounters,
        audienceCursor: 0,
        audienceFrozenAt: null,
        sentAt: null,
        statisticsCalculatedAt: null,
        summaryMailSentAt: null,
        createdAt: content.updatedAt
      })
      return yield* view(campaign)
    })

    /** Replaces a draft or scheduled campaign's content; other statuses are a 422 on `campaign`. */
    const update = Effect.fn("Campaigns.update")(function*(ref: string, input: CampaignInput) {
      const existing = yield* find(ref)
      if (!isEditable(existing.status)) {
        return yield* ValidationError.field("campaign", `You cannot update a campaign in status ${existing.status}.`)
      }
      const content = yield* contentOf(input)
      const updated = yield* repo.update(existing.id, {
        ...content,
        status: content.scheduledAt === null ? "draft" : "scheduled"
      }).pipe(orNotFound("Campaign"))
      return yield* view(updated)
    })

    /** Deletes the campaign with its sends and tracked links. */
    const remove = Effect.fn("Campaigns.remove")(function*(ref: string) {
      const campaign = yield* find(ref)
      yield* repo.delete(campaign.id)
    })

    return { list, get, create, update, remove, find } as const
  })
}) {}
