import { Effect, Option } from "effect"
import type { Campaign } from "../../domain/Campaign.js"
import { SendCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { CampaignId, CampaignUuid, EmailListId, SendId } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { SegmentRule } from "../../domain/SegmentRule.js"
import type { Send } from "../../domain/Send.js"
import { CampaignRepository, type CampaignContent, type NewCampaign } from "../../ports/CampaignRepository.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { SuppressionRepository } from "../../ports/SuppressionRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { aSubscriber, aSuppression, aTag, anEmailList, at, type MakeStorage } from "./fixtures.js"
import { zeroMailCounters } from "../../domain/zeroMailCounters.js"

/** A draft campaign without list, template, segment, counters or delivery times, ready to insert. */
export const aCampaign = (overrides: Partial<NewCampaign> = {}): NewCampaign => ({
  uuid: newUuid() as CampaignUuid,
  name: "Spring news",
  emailListId: null,
  templateId: null,
  segmentId: null,
  status: "draft",
  subject: "Hello",
  html: "<p>Hello</p>",
  structuredHtml: null,
  fields: {},
  emailHtml: null,
  webviewHtml: null,
  mailableClass: null,
  fromEmail: "news@example.com",
  fromName: "News",
  replyToEmail: null,
  replyToName: null,
  segmentDescription: "All subscribers",
  utmTags: false,
  trackOpens: true,
  trackClicks: true,
  addSubscriberTags: false,
  addSubscriberLinkTags: false,
  disableWebview: false,
  ...zeroMailCounters,
  audienceCursor: 0,
  audienceFrozenAt: null,
  scheduledAt: null,
  sentAt: null,
  statisticsCalculatedAt: null,
  summaryMailSentAt: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** The client-editable fields of a campaign as they are, to change a few. */
export const contentOf = (c: Campaign): CampaignContent => ({
  name: c.name,
  emailListId: c.emailListId,
  templateId: c.templateId,
  segmentId: c.segmentId,
  subject: c.subject,
  html: c.html,
  structuredHtml: c.structuredHtml,
  fields: c.fields,
  emailHtml: c.emailHtml,
  webviewHtml: c.webviewHtml,
  mailableClass: c.mailableClass,
  fromEmail: c.fromEmail,
  fromName: c.fromName,
  replyToEmail: c.replyToEmail,
  replyToName: c.replyToName,
  segmentDescription: c.segmentDescription,
  utmTags: c.utmTags,
  trackOpens: c.trackOpens,
  trackClicks: c.trackClicks,
  addSubscriberTags: c.addSubscriberTags,
  addSubscriberLinkTags: c.addSubscriberLinkTags,
  disableWebview: c.disableWebview,
  scheduledAt: c.scheduledAt,
  updatedAt: c.updatedAt
})

/** Ids in ascending order, to compare sets of rows whatever order a store returns them in. */
export const sortedIds = (rows: ReadonlyArray<{ readonly id: number }>) => rows.map((row) => row.id).sort((a, b) => a - b)

/** Shared fixtures of the campaign-side contracts: a fresh store per test, lists, subscribers, campaigns and sends. */
export const campaignFixtures = (makeStorage: MakeStorage) => {
  const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage())
  const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
  const subscribe = (emailListId: EmailListId, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
    Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.insert(aSubscriber(emailListId, overrides)), Option.getOrThrow))
  const tagsOf = (emailListId: EmailListId, ...names: ReadonlyArray<string>) =>
    Effect.flatMap(TagRepository, (r) =>
      Effect.forEach(names, (name) => Effect.map(r.insertOrGet(aTag(emailListId, { name })), ({ tag }) => tag.id)))
  const suppress = (email: string) => Effect.flatMap(SuppressionRepository, (r) => r.insertOrGet(aSuppression({ email })))
  const campaign = (overrides: Partial<NewCampaign> = {}) =>
    Effect.flatMap(CampaignRepository, (r) => r.insert(aCampaign(overrides)))
  const found = (id: CampaignId) => Effect.flatMap(CampaignRepository, (r) => Effect.map(r.findById(id), Option.getOrThrow))
  /** Freezes one batch of the campaign's list (every subscriber after `after`, 100 at most, unless told). */
  const freeze = (
    c: Campaign,
    options: { readonly segment?: SegmentRule | null; readonly after?: number; readonly limit?: number; readonly at?: Date } = {}
  ) =>
    Effect.flatMap(SendRepository, (r) =>
      r.freezeBatch({
        campaignId: c.id,
        emailListId: c.emailListId!,
        segment: options.segment ?? null,
        afterSubscriberId: options.after ?? 0,
        limit: options.limit ?? 100,
        at: options.at ?? at(1)
      }))
  /** Every send of the campaign, in id order. */
  const sendsOf = (c: Campaign) =>
    Effect.gen(function*() {
      const query = yield* makeCollectionQuery(SendCollection, { filters: { campaign_uuid: c.uuid }, perPage: 100 })
      const page = yield* Effect.flatMap(SendRepository, (r) => r.list(query))
      return page.items.map((listed) => listed.send).sort((a, b) => a.id - b.id)
    })
  const sendFor = (send: { readonly uuid: Send["uuid"] }) =>
    Effect.flatMap(SendRepository, (r) => Effect.map(r.findByUuid(send.uuid), (listed) => Option.getOrThrow(listed).send))
  /** Claims for `owner` (default "worker-a") at `now` until `leaseUntil` (seconds of the fixture clock). */
  const claim = (c: Campaign, now: number, leaseUntil: number, limit = 10, owner = "worker-a") =>
    Effect.flatMap(SendRepository, (r) => r.claim({ campaignId: c.id, now: at(now), leaseUntil: at(leaseUntil), limit, owner }))
  /** A campaign (status sending) of a new list whose subscribers, one per address, each have a send; sends in id order. */
  const audience = (emails: ReadonlyArray<string>, overrides: Partial<NewCampaign> = {}) =>
    Effect.gen(function*() {
      const list = yield* aList
      const subscribers = yield* Effect.forEach(emails, (email) => subscribe(list, { email }))
      const c = yield* campaign({ emailListId: list, status: "sending", ...overrides })
      yield* freeze(c)
      const sends = yield* sendsOf(c)
      return { list, subscribers, campaign: c, sends, sendIds: sends.map((s): SendId => s.id) }
    })
  return { run, aList, subscribe, tagsOf, suppress, campaign, found, freeze, sendsOf, sendFor, claim, audience }
}
