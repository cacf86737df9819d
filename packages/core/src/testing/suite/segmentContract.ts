import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SegmentCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, SegmentId, SegmentUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { SegmentTag } from "../../domain/Segment.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { aSegment, aTag, anEmailList, at, type MakeStorage } from "./fixtures.js"

const names = (page: { readonly items: ReadonlyArray<{ readonly name: string }> }) => page.items.map((s) => s.name)
/** A segment's tags in id order (the port does not fix their order). */
const byId = (tags: ReadonlyArray<SegmentTag>) => [...tags].sort((a, b) => a.id - b.id)

/** SegmentRepository conformance. */
export const segmentContract = (makeStorage: MakeStorage) =>
  describe("SegmentRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, SegmentRepository | TagRepository | EmailListRepository>) =>
      Effect.provide(effect, makeStorage())
    const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
    const tagsOf = (emailListId: EmailListId, ...tagNames: ReadonlyArray<string>) =>
      Effect.flatMap(TagRepository, (r) =>
        Effect.forEach(tagNames, (name) => Effect.map(r.insertOrGet(aTag(emailListId, { name })), ({ tag }) => tag)))
    const list = (
      emailListId: EmailListId,
      options: Parameters<typeof makeCollectionQuery<"name" | "created_at", "search", "emailList">>[1]
    ) =>
      Effect.flatMap(
        makeCollectionQuery(SegmentCollection, options),
        (q) => Effect.flatMap(SegmentRepository, (r) => r.list(emailListId, q))
      )

    it.effect("inserts and finds by id and uuid, with its tags by id and name", () =>
      run(Effect.gen(function*() {
        const repo = yield* SegmentRepository
        const one = yield* aList
        const [vip, news, promo] = yield* tagsOf(one, "vip", "news", "promo")
        const saved = yield* repo.insert(aSegment(one, {
          name: "Engaged",
          positiveTagIds: [vip!.id, news!.id],
          negativeTagIds: [promo!.id],
          allPositiveTagsRequired: true,
          createdAt: at(1),
          updatedAt: at(2)
        }))
        expect(saved.id).toBeGreaterThan(0)
        expect(saved).toMatchObject({ emailListId: one, name: "Engaged", allPositiveTagsRequired: true, allNegativeTagsRequired: false })
        expect(byId(saved.positiveTags)).toEqual([{ id: vip!.id, name: "vip" }, { id: news!.id, name: "news" }])
        expect(saved.negativeTags).toEqual([{ id: promo!.id, name: "promo" }])
        expect(saved.createdAt).toEqual(at(1))
        expect(saved.updatedAt).toEqual(at(2))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)

        const plain = yield* repo.insert(aSegment(one, { allNegativeTagsRequired: true }))
        expect(plain).toMatchObject({ positiveTags: [], negativeTags: [], allPositiveTagsRequired: false, allNegativeTagsRequired: true })
        expect(Option.isNone(yield* repo.findById(999 as SegmentId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as SegmentUuid))).toBe(true)
      })))

    it.effect("updates name and flags and replaces every tag condition", () =>
      run(Effect.gen(function*() {
        const repo = yield* SegmentRepository
        const one = yield* aList
        const [vip, news, promo] = yield* tagsOf(one, "vip", "news", "promo")
        const saved = yield* repo.insert(aSegment(one, { positiveTagIds: [vip!.id], negativeTagIds: [news!.id] }))
        const updated = Option.getOrThrow(yield* repo.update(saved.id, {
          name: "Renamed",
          positiveTagIds: [promo!.id, news!.id],
          negativeTagIds: [],
          allPositiveTagsRequired: true,
          allNegativeTagsRequired: true,
          updatedAt: at(9)
        }))
        expect(updated).toMatchObject({
          id: saved.id,
          uuid: saved.uuid,
          emailListId: one,
          name: "Renamed",
          negativeTags: [],
          allPositiveTagsRequired: true,
          allNegativeTagsRequired: true
        })
        expect(byId(updated.positiveTags)).toEqual([{ id: news!.id, name: "news" }, { id: promo!.id, name: "promo" }])
        expect(updated.createdAt).toEqual(at(0))
        expect(updated.updatedAt).toEqual(at(9))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(updated)

        const cleared = Option.getOrThrow(yield* repo.update(saved.id, {
          name: "Everyone",
          positiveTagIds: [],
          negativeTagIds: [vip!.id],
          allPositiveTagsRequired: false,
          allNegativeTagsRequired: false,
          updatedAt: at(10)
        }))
        expect(cleared).toMatchObject({ positiveTags: [], negativeTags: [{ id: vip!.id, name: "vip" }] })
        expect(Option.isNone(yield* repo.update(999 as SegmentId, { ...aSegment(one), updatedAt: at(9) }))).toBe(true)
      })))

    it.effect("returns its tags under their current names", () =>
      run(Effect.gen(function*() {
        const repo = yield* SegmentRepository
        const tags = yield* TagRepository
        const one = yield* aList
        const [vip, news] = yield* tagsOf(one, "vip", "news")
        const saved = yield* repo.insert(aSegment(one, { positiveTagIds: [vip!.id], negativeTagIds: [news!.id] }))
        yield* tags.update(vip!.id, { name: "V.I.P.", visibleInPreferences: false, updatedAt: at(5) })
        yield* tags.update(news!.id, { name: "Newsletter", visibleInPreferences: true, updatedAt: at(5) })
        const found = Option.getOrThrow(yield* repo.findById(saved.id))
        expect(found.positiveTags).toEqual([{ id: vip!.id, name: "V.I.P." }])
        expect(found.negativeTags).toEqual([{ id: news!.id, name: "Newsletter" }])
        expect((yield* list(one, {})).items[0]?.positiveTags).toEqual([{ id: vip!.id, name: "V.I.P." }])
        expect(found.updatedAt).toEqual(at(0))
      })))

    it.effect("deletes once, keeping the tags and the other segments", () =>
      run(Effect.gen(function*() {
        const repo = yield* SegmentRepository
        const tags = yield* TagRepository
        const one = yield* aList
        const [vip] = yield* tagsOf(one, "vip")
        const gone = yield* repo.insert(aSegment(one, { name: "gone", positiveTagIds: [vip!.id] }))
        const kept = yield* repo.insert(aSegment(one, { name: "kept", positiveTagIds: [vip!.id] }))
        expect(yield* repo.delete(gone.id)).toBe(true)
        expect(yield* repo.delete(gone.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(gone.id))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(gone.uuid))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(kept.id))).toEqual(kept)
        expect(Option.isSome(yield* tags.findById(vip!.id))).toBe(true)
        expect(names(yield* list(one, {}))).toEqual(["kept"])
        const again = yield* repo.insert(aSegment(one, { name: "again", positiveTagIds: [vip!.id] }))
        expect(again.id).toBeGreaterThan(kept.id)
        expect(again.positiveTags).toEqual([{ id: vip!.id, name: "vip" }])
      })))

    it.effect("lists the list's segments with their tags, sorted by name or created_at, searched, paged", () =>
      run(Effect.gen(function*() {
        const repo = yield* SegmentRepository
        const [one, two] = [yield* aList, yield* aList]
        const [vip] = yield* tagsOf(one, "vip")
        yield* repo.insert(aSegment(one, { name: "beta", createdAt: at(2) }))
        yield* repo.insert(aSegment(one, { name: "Alpha", createdAt: at(3), positiveTagIds: [vip!.id] }))
        yield* repo.insert(aSegment(one, { name: "gamma_1", createdAt: at(1) }))
        yield* repo.insert(aSegment(two, { name: "Alpha elsewhere" }))

        const all = yield* list(one, {})
        expect(names(all)).toEqual(["Alpha", "beta", "gamma_1"])
        expect(all.total).toBe(3)
        expect(all.items[0]?.positiveTags).toEqual([{ id: vip!.id, name: "vip" }])
        expect(all.items[1]?.positiveTags).toEqual([])
        expect(names(yield* list(one, { sort: "-name" }))).toEqual(["gamma_1", "beta", "Alpha"])
        expect(names(yield* list(one, { sort: "created_at" }))).toEqual(["gamma_1", "beta", "Alpha"])
        expect(names(yield* list(one, { sort: "-created_at" }))).toEqual(["Alpha", "beta", "gamma_1"])
        expect(names(yield* list(one, { filters: { search: "ALP" } }))).toEqual(["Alpha"])
        expect(names(yield* list(one, { filters: { search: "_" } }))).toEqual(["gamma_1"])
        expect(names(yield* list(two, {}))).toEqual(["Alpha elsewhere"])
        const second = yield* list(one, { page: 2, perPage: 2 })
        expect(names(second)).toEqual(["gamma_1"])
        expect(second.total).toBe(3)
        expect(yield* list(one, { page: 3, perPage: 2 })).toEqual({ items: [], total: 3 })
      })))
  })
