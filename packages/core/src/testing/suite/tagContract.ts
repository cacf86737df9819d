import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TagCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, TagId, TagUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { Tag, TagRef } from "../../domain/Tag.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { aSegment, aSubscriber, aTag, anEmailList, at, type MakeStorage } from "./fixtures.js"

const names = (page: { readonly items: ReadonlyArray<{ readonly name: string }> }) => page.items.map((t) => t.name)
/** Tags by id, for comparing sets of tags whatever order a store returns them in. */
const byId = <T extends { readonly id: TagId }>(tags: ReadonlyArray<T>) => [...tags].sort((a, b) => a.id - b.id)
const ref = (tag: Tag): TagRef => ({ id: tag.id, name: tag.name, emailListId: tag.emailListId })
const ids = (tags: ReadonlyArray<{ readonly id: TagId }>) => tags.map((t) => t.id).sort((a, b) => a - b)

/** TagRepository conformance (with the subscriber and segment links a tag has). */
export const tagContract = (makeStorage: MakeStorage) =>
  describe("TagRepository", () => {
    const run = <A, E>(
      effect: Effect.Effect<A, E, TagRepository | EmailListRepository | SubscriberRepository | SegmentRepository>
    ) => Effect.provide(effect, makeStorage())
    const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
    const list = (
      emailListId: EmailListId,
      options: Parameters<
        typeof makeCollectionQuery<
          "name" | "updated_at" | "subscriber_count" | "visible_in_preferences",
          "search" | "type",
          "emailList"
        >
      >[1]
    ) => Effect.flatMap(makeCollectionQuery(TagCollection, options), (q) => Effect.flatMap(TagRepository, (r) => r.list(emailListId, q)))
    const countOf = (id: TagId) =>
      Effect.flatMap(TagRepository, (r) => Effect.map(r.findById(id), (t) => Option.getOrThrow(t).subscriberCount))

    it.effect("inserts a tag, finds it by id and uuid, and never duplicates a name of the list in another case", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const [one, two] = [yield* aList, yield* aList]
        const first = yield* repo.insertOrGet(aTag(one, { name: "VIP", visibleInPreferences: true, updatedAt: at(3) }))
        expect(first.created).toBe(true)
        expect(first.tag).toMatchObject({ emailListId: one, name: "VIP", type: "default", visibleInPreferences: true, subscriberCount: 0 })
        expect(first.tag.id).toBeGreaterThan(0)
        expect(first.tag.createdAt).toEqual(at(0))
        expect(first.tag.updatedAt).toEqual(at(3))
        expect(Option.getOrThrow(yield* repo.findById(first.tag.id))).toEqual(first.tag)
        expect(Option.getOrThrow(yield* repo.findByUuid(first.tag.uuid))).toEqual(first.tag)

        const again = yield* repo.insertOrGet(aTag(one, { name: "vip", type: "mailcoach", createdAt: at(9) }))
        expect(again).toEqual({ tag: first.tag, created: false })
        const elsewhere = yield* repo.insertOrGet(aTag(two, { name: "vip" }))
        expect(elsewhere.created).toBe(true)
        expect(elsewhere.tag).toMatchObject({ emailListId: two, name: "vip" })
        expect(elsewhere.tag.id).not.toBe(first.tag.id)
        expect((yield* list(one, {})).total).toBe(1)

        expect(Option.isNone(yield* repo.findById(999 as TagId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as TagUuid))).toBe(true)
      })))

    it.effect("ensures named tags: creates the missing ones with the type, refers to the existing ones unchanged", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const [one, two] = [yield* aList, yield* aList]
        const { tag: vip } = yield* repo.insertOrGet(aTag(one, { name: "VIP", visibleInPreferences: true }))
        const { tag: otherNews } = yield* repo.insertOrGet(aTag(two, { name: "news" }))

        const ensured = yield* repo.ensure(one, ["vip", "News", " promo "], "mailcoach", at(5))
        expect(ensured).toHaveLength(3)
        const [news, promo] = [ensured.find((t) => t.name === "News")!, ensured.find((t) => t.name === "promo")!]
        expect(ensured.find((t) => t.id === vip.id)).toEqual(ref(vip))
        expect(Option.getOrThrow(yield* repo.findById(vip.id))).toEqual(vip)
        const created = Option.getOrThrow(yield* repo.findById(news.id))
        expect(ref(created)).toEqual(news)
        expect(created).toMatchObject({ emailListId: one, type: "mailcoach", visibleInPreferences: false, subscriberCount: 0 })
        expect(created.createdAt).toEqual(at(5))
        expect(created.updatedAt).toEqual(at(5))
        expect(news.id).not.toBe(otherNews.id)
        expect(Option.getOrThrow(yield* repo.findById(promo.id))).toMatchObject({ emailListId: one, type: "mailcoach" })

        const twice = yield* repo.ensure(one, ["NEWS", "Promo", "VIP"], "default", at(9))
        expect(byId(twice)).toEqual(byId(ensured))
        expect(names(yield* list(one, {}))).toEqual(["News", "promo", "VIP"])
        expect(names(yield* list(two, {}))).toEqual(["news"])
        expect(yield* repo.ensure(one, [], "default", at(9))).toEqual([])
      })))

    it.effect("finds the list's tags by name in any case or by uuid", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const [one, two] = [yield* aList, yield* aList]
        const { tag: vip } = yield* repo.insertOrGet(aTag(one, { name: "VIP" }))
        const { tag: news } = yield* repo.insertOrGet(aTag(one, { name: "News" }))
        yield* repo.insertOrGet(aTag(one, { name: "Promo" }))
        const { tag: otherVip } = yield* repo.insertOrGet(aTag(two, { name: "vip" }))

        expect(byId(yield* repo.findByRefs(one, ["vip", news.uuid, "unknown"]))).toEqual([vip, news])
        expect(yield* repo.findByRefs(one, ["NEWS"])).toEqual([news])
        expect(yield* repo.findByRefs(one, [news.uuid.toUpperCase()])).toEqual([news])
        expect(yield* repo.findByRefs(one, [otherVip.uuid])).toEqual([])
        expect(yield* repo.findByRefs(two, ["VIP", vip.uuid])).toEqual([otherVip])
        expect(yield* repo.findByRefs(one, [])).toEqual([])
        expect(yield* repo.findByRefs(one, ["nothing"])).toEqual([])
      })))

    it.effect("updates name and preference visibility, keeping the rest", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const subscribers = yield* SubscriberRepository
        const one = yield* aList
        const { tag } = yield* repo.insertOrGet(aTag(one, { name: "vip", type: "mailcoach" }))
        const subscriber = Option.getOrThrow(yield* subscribers.insert(aSubscriber(one)))
        yield* subscribers.addTags(subscriber.id, [tag.id])

        const updated = Option.getOrThrow(
          yield* repo.update(tag.id, { name: "VIP", visibleInPreferences: true, updatedAt: at(9) })
        )
        expect(updated).toMatchObject({
          id: tag.id,
          uuid: tag.uuid,
          emailListId: one,
          name: "VIP",
          type: "mailcoach",
          visibleInPreferences: true,
          subscriberCount: 1
        })
        expect(updated.createdAt).toEqual(at(0))
        expect(updated.updatedAt).toEqual(at(9))
        expect(Option.getOrThrow(yield* repo.findById(tag.id))).toEqual(updated)
        expect(yield* repo.insertOrGet(aTag(one, { name: "Vip" }))).toEqual({ tag: updated, created: false })
        expect(Option.getOrThrow(yield* subscribers.findById(subscriber.id)).tags).toEqual(["VIP"])
        expect(Option.isNone(yield* repo.update(999 as TagId, { name: "x", visibleInPreferences: false, updatedAt: at(9) })))
          .toBe(true)
      })))

    it.effect("deletes once, detaching the tag from subscribers and segments", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const subscribers = yield* SubscriberRepository
        const segments = yield* SegmentRepository
        const one = yield* aList
        const { tag: vip } = yield* repo.insertOrGet(aTag(one, { name: "vip" }))
        const { tag: news } = yield* repo.insertOrGet(aTag(one, { name: "news" }))
        const subscriber = Option.getOrThrow(yield* subscribers.insert(aSubscriber(one)))
        yield* subscribers.addTags(subscriber.id, [vip.id, news.id])
        const positive = yield* segments.insert(aSegment(one, { positiveTagIds: [vip.id, news.id] }))
        const negative = yield* segments.insert(aSegment(one, { negativeTagIds: [vip.id] }))

        expect(yield* repo.delete(vip.id)).toBe(true)
        expect(yield* repo.delete(vip.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(vip.id))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(vip.uuid))).toBe(true)
        expect(Option.getOrThrow(yield* subscribers.findById(subscriber.id)).tags).toEqual(["news"])
        expect(yield* subscribers.tagIds(subscriber.id)).toEqual([news.id])
        expect(Option.getOrThrow(yield* segments.findById(positive.id)).positiveTags).toEqual([{ id: news.id, name: "news" }])
        expect(Option.getOrThrow(yield* segments.findById(negative.id)).negativeTags).toEqual([])
        expect(yield* subscribers.count({ emailListId: one, tags: { ids: [news.id], all: false } })).toBe(1)
        expect(yield* countOf(news.id)).toBe(1)
        expect((yield* repo.insertOrGet(aTag(one, { name: "VIP" }))).created).toBe(true)
      })))

    it.effect("counts subscribers as tags are added and removed and subscribers are deleted", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const subscribers = yield* SubscriberRepository
        const one = yield* aList
        const { tag: a } = yield* repo.insertOrGet(aTag(one, { name: "a" }))
        const { tag: b } = yield* repo.insertOrGet(aTag(one, { name: "b" }))
        const [s1, s2] = [
          Option.getOrThrow(yield* subscribers.insert(aSubscriber(one, { email: "s1@example.com" }))),
          Option.getOrThrow(yield* subscribers.insert(aSubscriber(one, { email: "s2@example.com", subscribedAt: null })))
        ]
        yield* subscribers.addTags(s1.id, [a.id, b.id])
        yield* subscribers.addTags(s2.id, [a.id])
        yield* subscribers.addTags(s2.id, [a.id])
        yield* subscribers.addTags(s2.id, [])
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([2, 1])
        expect((yield* list(one, {})).items.map((t) => t.subscriberCount)).toEqual([2, 1])

        yield* subscribers.removeTags(s1.id, [a.id])
        yield* subscribers.removeTags(s1.id, [a.id])
        yield* subscribers.removeTags(s1.id, [])
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([1, 1])
        expect(yield* subscribers.tagIds(s1.id)).toEqual([b.id])

        // one step that drops one tag and adds another, and one that adds a tag already there
        yield* subscribers.changeTags(s1.id, { remove: [b], add: [a] })
        yield* subscribers.changeTags(s1.id, { remove: [], add: [a] })
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([2, 0])
        yield* subscribers.changeTags(s1.id, { remove: [a], add: [b] })
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([1, 1])
        expect(yield* subscribers.tagIds(s1.id)).toEqual([b.id])

        expect(yield* subscribers.delete(s2.id)).toBe(true)
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([0, 1])
        expect(yield* subscribers.delete(s1.id)).toBe(true)
        expect([yield* countOf(a.id), yield* countOf(b.id)]).toEqual([0, 0])
      })))

    it.effect("sorts by name, updated_at, subscriber_count and visible_in_preferences", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const subscribers = yield* SubscriberRepository
        const one = yield* aList
        const tag = (name: string, seconds: number, visibleInPreferences: boolean, count: number) =>
          Effect.gen(function*() {
            const { tag } = yield* repo.insertOrGet(aTag(one, { name, updatedAt: at(seconds), visibleInPreferences }))
            for (let i = 0; i < count; i++) {
              const s = Option.getOrThrow(yield* subscribers.insert(aSubscriber(one, { email: `${name}${i}@example.com` })))
              yield* subscribers.addTags(s.id, [tag.id])
            }
          })
        yield* tag("beta", 30, true, 2)
        yield* tag("Alpha", 10, false, 1)
        yield* tag("gamma", 20, true, 0)
        yield* tag("delta", 40, false, 3)
        expect(names(yield* list(one, {}))).toEqual(["Alpha", "beta", "delta", "gamma"])
        expect(names(yield* list(one, { sort: "-name" }))).toEqual(["gamma", "delta", "beta", "Alpha"])
        expect(names(yield* list(one, { sort: "updated_at" }))).toEqual(["Alpha", "gamma", "beta", "delta"])
        expect(names(yield* list(one, { sort: "-updated_at" }))).toEqual(["delta", "beta", "gamma", "Alpha"])
        expect(names(yield* list(one, { sort: "subscriber_count" }))).toEqual(["gamma", "Alpha", "beta", "delta"])
        expect(names(yield* list(one, { sort: "-subscriber_count" }))).toEqual(["delta", "beta", "Alpha", "gamma"])
        expect(names(yield* list(one, { sort: "visible_in_preferences,name" }))).toEqual(["Alpha", "delta", "beta", "gamma"])
        expect(names(yield* list(one, { sort: "-visible_in_preferences,name" }))).toEqual(["beta", "gamma", "Alpha", "delta"])
      })))

    it.effect("lists only the list's tags, filtered by search and type, in pages with a total", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const [one, two] = [yield* aList, yield* aList]
        for (const name of ["Summer Sale", "summer_news", "Winter"]) yield* repo.insertOrGet(aTag(one, { name }))
        yield* repo.insertOrGet(aTag(one, { name: "campaign-x-opened", type: "mailcoach" }))
        yield* repo.insertOrGet(aTag(two, { name: "summer other" }))

        expect(names(yield* list(one, {}))).toEqual(["campaign-x-opened", "Summer Sale", "summer_news", "Winter"])
        expect(names(yield* list(two, {}))).toEqual(["summer other"])
        expect(names(yield* list(one, { filters: { search: "SUMMER" } }))).toEqual(["Summer Sale", "summer_news"])
        expect(names(yield* list(one, { filters: { search: "r_" } }))).toEqual(["summer_news"])
        expect(names(yield* list(one, { filters: { type: "mailcoach" } }))).toEqual(["campaign-x-opened"])
        expect(names(yield* list(one, { filters: { type: "default" } }))).toEqual(["Summer Sale", "summer_news", "Winter"])
        expect((yield* list(one, { filters: { type: "other" } })).total).toBe(4)
        expect(names(yield* list(one, { filters: { type: "default", search: "sum" } }))).toEqual(["Summer Sale", "summer_news"])

        const second = yield* list(one, { page: 2, perPage: 3 })
        expect(names(second)).toEqual(["Winter"])
        expect(second.total).toBe(4)
        expect(yield* list(one, { page: 3, perPage: 3 })).toEqual({ items: [], total: 4 })
        expect(yield* list(999 as EmailListId, {})).toEqual({ items: [], total: 0 })
      })))

    it.effect("compares names case-insensitively beyond ASCII", () =>
      run(Effect.gen(function*() {
        const repo = yield* TagRepository
        const one = yield* aList
        const { tag: uber } = yield* repo.insertOrGet(aTag(one, { name: "Über" }))
        expect(yield* repo.findByRefs(one, ["Über"])).toEqual([uber])
        expect(yield* repo.findByRefs(one, ["ÜBER"])).toEqual([uber])
        expect(yield* repo.insertOrGet(aTag(one, { name: "über" }))).toEqual({ tag: uber, created: false })
        const ensured = yield* repo.ensure(one, ["ÜBER", "Ärger"], "default", at(1))
        expect(ensured.map((t) => t.name).sort()).toEqual(["Ärger", "Über"])
        expect(ids(ensured)).toContain(uber.id)
        expect((yield* list(one, { filters: { search: "ärg" } })).total).toBe(1)
        expect((yield* list(one, {})).total).toBe(2)
      })))
  })
