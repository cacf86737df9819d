import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { CampaignCollection, type CampaignSort } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId } from "../../domain/Ids.js"
import { CampaignRepository, type ListedCampaign } from "../../ports/CampaignRepository.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import { TemplateRepository } from "../../ports/TemplateRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { aSegment, aTemplate, at, type MakeStorage } from "./fixtures.js"

type CampaignFilter = "search" | "status" | "email_list_id" | "emailList.uuid" | "contentItem.template.uuid"

const names = (page: { readonly items: ReadonlyArray<ListedCampaign> }) => page.items.map((l) => l.campaign.name)

/** CampaignRepository.list conformance: the sorts, filters, paging and public ids of the campaign collection. */
export const campaignQueryContract = (makeStorage: MakeStorage) =>
  describe("CampaignRepository.list", () => {
    const { aList, campaign, run } = campaignFixtures(makeStorage)
    const list = (options: Parameters<typeof makeCollectionQuery<CampaignSort, CampaignFilter, never>>[1] = {}) =>
      Effect.flatMap(makeCollectionQuery(CampaignCollection, options), (q) => Effect.flatMap(CampaignRepository, (r) => r.list(q)))
    const listUuidOf = (id: EmailListId) =>
      Effect.flatMap(EmailListRepository, (r) => Effect.map(r.findById(id), (l) => Option.getOrThrow(l).uuid))

    /** Five campaigns over two lists, each first on some sort. */
    const fiveCampaigns = Effect.gen(function*() {
      const [one, two] = [yield* aList, yield* aList]
      yield* campaign({ name: "Alpha", emailListId: one, status: "draft", updatedAt: at(1) })
      yield* campaign({
        name: "beta",
        emailListId: two,
        status: "sent",
        sentAt: at(20),
        updatedAt: at(21),
        sentToNumberOfSubscribers: 10,
        uniqueOpenCount: 5,
        uniqueClickCount: 1,
        unsubscribeCount: 2
      })
      yield* campaign({
        name: "Gamma",
        emailListId: one,
        status: "scheduled",
        scheduledAt: at(30),
        sentToNumberOfSubscribers: 0,
        uniqueOpenCount: 0
      })
      yield* campaign({
        name: "delta",
        emailListId: one,
        status: "sending",
        updatedAt: at(15),
        sentToNumberOfSubscribers: 4,
        uniqueOpenCount: 9,
        uniqueClickCount: 3,
        unsubscribeCount: 1
      })
      yield* campaign({ name: "Zeta", emailListId: null, status: "draft", updatedAt: at(2), scheduledAt: at(40) })
      return { one, two }
    })

    it.effect("sorts unscheduled drafts first, then by schedule, send or update time, newest first, by default", () =>
      run(Effect.gen(function*() {
        yield* fiveCampaigns
        const page = yield* list()
        expect(page.total).toBe(5)
        expect(names(page)).toEqual(["Zeta", "Alpha", "Gamma", "beta", "delta"])
        expect(names(yield* list({ sort: "sent" }))).toEqual(["delta", "beta", "Gamma", "Alpha", "Zeta"])
      })))

    it.effect("sorts by name ignoring case, by list (no list first) and by each statistic", () =>
      run(Effect.gen(function*() {
        yield* fiveCampaigns
        expect(names(yield* list({ sort: "name" }))).toEqual(["Alpha", "beta", "delta", "Gamma", "Zeta"])
        expect(names(yield* list({ sort: "-name" }))).toEqual(["Zeta", "Gamma", "delta", "beta", "Alpha"])
        expect(names(yield* list({ sort: "email_list_id,name" }))).toEqual(["Zeta", "Alpha", "delta", "Gamma", "beta"])
        expect(names(yield* list({ sort: "-email_list_id,-name" }))).toEqual(["beta", "Gamma", "delta", "Alpha", "Zeta"])
        expect(names(yield* list({ sort: "-unique_open_count" }))).toEqual(["delta", "beta", "Zeta", "Gamma", "Alpha"])
        expect(names(yield* list({ sort: "unique_click_count,name" }))).toEqual(["Alpha", "Gamma", "Zeta", "beta", "delta"])
        expect(names(yield* list({ sort: "-unsubscribe_rate,name" }))).toEqual(["delta", "beta", "Alpha", "Gamma", "Zeta"])
        expect(names(yield* list({ sort: "-sent_to_number_of_subscribers,name" })))
          .toEqual(["beta", "delta", "Alpha", "Gamma", "Zeta"])
      })))

    it.effect("filters by name, status, list id, list uuid and template uuid, and pages the result", () =>
      run(Effect.gen(function*() {
        const { one } = yield* fiveCampaigns
        const listUuid = yield* listUuidOf(one)
        const template = yield* Effect.flatMap(TemplateRepository, (r) => r.insert(aTemplate()))
        yield* campaign({ name: "50% off_sale", templateId: template.id, emailListId: one, status: "paused" })
        yield* campaign({ name: "500 offers", status: "cancelled", sentAt: at(3) })

        expect(names(yield* list({ sort: "name", filters: { search: "ET" } }))).toEqual(["beta", "Zeta"])
        expect(names(yield* list({ sort: "name", filters: { search: "0% off_" } }))).toEqual(["50% off_sale"])
        expect(names(yield* list({ sort: "name", filters: { status: "draft" } }))).toEqual(["Alpha", "Zeta"])
        expect(names(yield* list({ sort: "name", filters: { status: "paused" } }))).toEqual(["50% off_sale"])
        expect(names(yield* list({ sort: "name", filters: { status: "cancelled" } }))).toEqual(["500 offers"])
        expect(names(yield* list({ sort: "name", filters: { email_list_id: String(one) } })))
          .toEqual(["50% off_sale", "Alpha", "delta", "Gamma"])
        expect(names(yield* list({ sort: "name", filters: { "emailList.uuid": listUuid.toUpperCase() } })))
          .toEqual(["50% off_sale", "Alpha", "delta", "Gamma"])
        expect(names(yield* list({ filters: { "contentItem.template.uuid": template.uuid } }))).toEqual(["50% off_sale"])
        expect(names(yield* list({ sort: "name", filters: { email_list_id: String(one), status: "draft", search: "a" } })))
          .toEqual(["Alpha"])

        const second = yield* list({ sort: "name", page: 2, perPage: 3 })
        expect(second.total).toBe(7)
        expect(names(second)).toEqual(["beta", "delta", "Gamma"])
        const past = yield* list({ sort: "name", page: 4, perPage: 3 })
        expect(past).toEqual({ items: [], total: 7 })
      })))

    it.effect("gives the public ids of the list, template and segment, null when unset or deleted", () =>
      run(Effect.gen(function*() {
        const templates = yield* TemplateRepository
        const segments = yield* SegmentRepository
        const one = yield* aList
        const listUuid = yield* listUuidOf(one)
        const template = yield* templates.insert(aTemplate())
        const segment = yield* segments.insert(aSegment(one))
        const full = yield* campaign({ name: "Full", emailListId: one, templateId: template.id, segmentId: segment.id })
        const bare = yield* campaign({ name: "Bare" })

        const listed = (yield* list({ sort: "name" })).items
        expect(listed).toEqual([
          { campaign: bare, emailListUuid: null, templateUuid: null, segmentUuid: null },
          { campaign: full, emailListUuid: listUuid, templateUuid: template.uuid, segmentUuid: segment.uuid }
        ])
        yield* templates.delete(template.id)
        yield* segments.delete(segment.id)
        expect((yield* list({ sort: "name" })).items[1]).toEqual({
          campaign: full,
          emailListUuid: listUuid,
          templateUuid: null,
          segmentUuid: null
        })
      })))
  })
