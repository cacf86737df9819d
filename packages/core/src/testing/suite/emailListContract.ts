import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { EmailListCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, EmailListUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { anEmailList, at, type MakeStorage } from "./fixtures.js"

const names = (page: { readonly items: ReadonlyArray<{ readonly name: string }> }) => page.items.map((l) => l.name)

/** EmailListRepository conformance. */
export const emailListContract = (makeStorage: MakeStorage) =>
  describe("EmailListRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, EmailListRepository>) => Effect.provide(effect, makeStorage())
    const list = (options: Parameters<typeof makeCollectionQuery<"name" | "created_at" | "active_subscribers_count", "search" | "name", never>>[1]) =>
      Effect.flatMap(makeCollectionQuery(EmailListCollection, options), (q) => Effect.flatMap(EmailListRepository, (r) => r.list(q)))

    it.effect("searches names ignoring case beyond ASCII, also after a rename", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        for (const name of ["Zebra", "Ärger", "été"]) yield* repo.insert(anEmailList({ name }))
        const renamed = yield* repo.insert(anEmailList({ name: "Alpha" }))
        yield* repo.update(renamed.id, { ...anEmailList(), name: "Éclair", updatedAt: at(1) })
        expect(names(yield* list({ filters: { search: "ÄRG" } }))).toEqual(["Ärger"])
        expect(names(yield* list({ filters: { search: "ÉCL" } }))).toEqual(["Éclair"])
      })))

    it.effect("round-trips every setting, booleans and nulls included", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        const saved = yield* repo.insert(anEmailList({
          campaignsFeedEnabled: true,
          requiresConfirmation: true,
          reportCampaignSummary: true,
          reportRecipients: "a@example.com,b@example.com",
          redirectAfterSubscribed: "https://example.com/thanks",
          defaultFromName: null,
          emailListSummarySentAt: at(5)
        }))
        expect(saved).toMatchObject({
          campaignsFeedEnabled: true,
          allowFormSubscriptions: false,
          requiresConfirmation: true,
          reportCampaignSent: false,
          reportCampaignSummary: true,
          defaultFromName: null,
          activeSubscribersCount: 0
        })
        expect(saved.emailListSummarySentAt).toEqual(at(5))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(Option.isNone(yield* repo.findById(12345 as EmailListId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as EmailListUuid))).toBe(true)
      })))

    it.effect("updates settings and keeps ids, counters and creation time", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        const saved = yield* repo.insert(anEmailList({ activeSubscribersCount: 7 }))
        const { uuid: _uuid, activeSubscribersCount: _c, emailListSummarySentAt: _s, createdAt: _a, ...settings } =
          anEmailList()
        const updated = Option.getOrThrow(
          yield* repo.update(saved.id, { ...settings, name: "Renamed", requiresConfirmation: true, updatedAt: at(9) })
        )
        expect(updated).toMatchObject({ id: saved.id, uuid: saved.uuid, name: "Renamed", requiresConfirmation: true, activeSubscribersCount: 7 })
        expect(updated.createdAt).toEqual(at(0))
        expect(updated.updatedAt).toEqual(at(9))
        expect(Option.isNone(yield* repo.update(999 as EmailListId, { ...settings, updatedAt: at(9) }))).toBe(true)
      })))

    it.effect("deletes once", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        const saved = yield* repo.insert(anEmailList())
        expect(yield* repo.delete(saved.id)).toBe(true)
        expect(yield* repo.delete(saved.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(saved.id))).toBe(true)
      })))

    it.effect("sorts by name, created_at and active_subscribers_count", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        yield* repo.insert(anEmailList({ name: "beta", createdAt: at(2), activeSubscribersCount: 5 }))
        yield* repo.insert(anEmailList({ name: "Alpha", createdAt: at(3), activeSubscribersCount: 1 }))
        yield* repo.insert(anEmailList({ name: "gamma", createdAt: at(1), activeSubscribersCount: 9 }))
        expect(names(yield* list({}))).toEqual(["Alpha", "beta", "gamma"])
        expect(names(yield* list({ sort: "-name" }))).toEqual(["gamma", "beta", "Alpha"])
        expect(names(yield* list({ sort: "created_at" }))).toEqual(["gamma", "beta", "Alpha"])
        expect(names(yield* list({ sort: "-created_at" }))).toEqual(["Alpha", "beta", "gamma"])
        expect(names(yield* list({ sort: "active_subscribers_count" }))).toEqual(["Alpha", "beta", "gamma"])
        expect(names(yield* list({ sort: "-active_subscribers_count" }))).toEqual(["gamma", "beta", "Alpha"])
      })))

    it.effect("filters by fuzzy search and by exact name", () =>
      run(Effect.gen(function*() {
        const repo = yield* EmailListRepository
        for (const name of ["VIP customers", "Customers", "customers", "Partners"]) yield* repo.insert(anEmailList({ name }))
        expect(names(yield* list({ filters: { search: "CUSTOM" } }))).toEqual(["Customers", "customers", "VIP customers"])
        expect(names(yield* list({ filters: { name: "Customers" } }))).toEqual(["Customers"])
        expect(names(yield* list({ filters: { name: "Custom" } }))).toEqual([])
        expect(names(yield* list({ filters: { name: "customers", search: "cus" } }))).toEqual(["customers"])
        expect((yield* list({ filters: { search: "partners" }, perPage: 1 })).total).toBe(1)
      })))
  })
