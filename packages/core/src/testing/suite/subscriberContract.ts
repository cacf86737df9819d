import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import type { EmailListId, SubscriberId, SubscriberUuid, TagId } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { compareTagNames } from "../../domain/Tag.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import { aSubscriber, at, type MakeStorage } from "./fixtures.js"
import { changesOf, subscriberFixtures } from "./subscriberFixtures.js"

/** SubscriberRepository conformance: writes, with the list and tag counters it keeps. */
export const subscriberContract = (makeStorage: MakeStorage) =>
  describe("SubscriberRepository", () => {
    const { activeCount, aList, matching, page, run, subscribe, tagged, tagsOf } = subscriberFixtures(makeStorage)

    it.effect("inserts and finds by id, uuid and email, keeping every field", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const [one, two] = [yield* aList, yield* aList]
        const extraAttributes = { company: "Acme", score: 4.5, vip: true, none: null, nested: { tags: ["a", "b"] }, greeting: "Grüße 👋" }
        const saved = yield* subscribe(one, {
          email: "ada@example.com",
          firstName: "Ada",
          lastName: null,
          extraAttributes,
          subscribedAt: at(1),
          createdAt: at(0),
          updatedAt: at(2)
        })
        expect(saved.id).toBeGreaterThan(0)
        expect(saved).toMatchObject({ emailListId: one, email: "ada@example.com", firstName: "Ada", lastName: null, tags: [] })
        expect(saved.extraAttributes).toEqual(extraAttributes)
        expect(saved.subscribedAt).toEqual(at(1))
        expect(saved.unsubscribedAt).toBeNull()
        expect(saved.createdAt).toEqual(at(0))
        expect(saved.updatedAt).toEqual(at(2))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByEmail(one, "ada@example.com"))).toEqual(saved)
        expect(Option.isNone(yield* repo.findByEmail(two, "ada@example.com"))).toBe(true)
        expect(Option.isNone(yield* repo.findByEmail(one, "grace@example.com"))).toBe(true)
        expect(Option.isNone(yield* repo.findById(999 as SubscriberId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as SubscriberUuid))).toBe(true)

        const unsubscribed = yield* subscribe(one, { email: "u@example.com", subscribedAt: at(1), unsubscribedAt: at(3) })
        expect(unsubscribed.unsubscribedAt).toEqual(at(3))
        const unconfirmed = yield* subscribe(one, { email: "c@example.com", subscribedAt: null })
        expect(unconfirmed.subscribedAt).toBeNull()
        expect(Option.getOrThrow(yield* repo.findById(unconfirmed.id))).toEqual(unconfirmed)
      })))

    it.effect("inserts nothing for an email the list already has, but does for another list", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const [one, two] = [yield* aList, yield* aList]
        const first = yield* subscribe(one, { email: "a@example.com" })
        expect(Option.isNone(yield* repo.insert(aSubscriber(one, { email: "a@example.com", firstName: "Other", subscribedAt: null }))))
          .toBe(true)
        expect(Option.getOrThrow(yield* repo.findByEmail(one, "a@example.com"))).toEqual(first)
        const second = Option.getOrThrow(yield* repo.insert(aSubscriber(two, { email: "a@example.com" })))
        expect(yield* repo.count({ emailListId: one })).toBe(1)
        expect(yield* activeCount(one)).toBe(1)
        expect(yield* activeCount(two)).toBe(1)
        yield* subscribe(one, { email: "b@example.com" })
        expect((yield* repo.findAllByEmail("a@example.com")).map((s) => [s.id, s.emailListId])).toEqual([[first.id, one], [second.id, two]])
        expect(yield* repo.findAllByEmail("nobody@example.com")).toEqual([])
      })))

    it.effect("updates the writable fields while the stored status is still the previous one", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const one = yield* aList
        const [vip] = yield* tagsOf(one, "vip")
        const saved = yield* subscribe(one, { email: "old@example.com", firstName: "Old", extraAttributes: { a: 1 } })
        yield* tagged(saved, [vip!])
        const previous = Option.getOrThrow(yield* repo.findById(saved.id))

        const updated = Option.getOrThrow(yield* repo.update(previous, {
          email: "new@example.com",
          firstName: null,
          lastName: "Lovelace",
          extraAttributes: { b: [2] },
          subscribedAt: at(1),
          unsubscribedAt: at(5),
          updatedAt: at(5)
        }))
        expect(updated).toMatchObject({
          id: saved.id,
          uuid: saved.uuid,
          emailListId: one,
          email: "new@example.com",
          firstName: null,
          lastName: "Lovelace",
          extraAttributes: { b: [2] },
          tags: ["vip"]
        })
        expect(updated.subscribedAt).toEqual(at(1))
        expect(updated.unsubscribedAt).toEqual(at(5))
        expect(updated.createdAt).toEqual(at(0))
        expect(updated.updatedAt).toEqual(at(5))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(updated)
        expect(Option.isNone(yield* repo.findByEmail(one, "old@example.com"))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findByEmail(one, "new@example.com"))).toEqual(updated)

        // `previous` says subscribed, the store now says unsubscribed: a concurrent change, so nothing is written.
        expect(Option.isNone(yield* repo.update(previous, { ...changesOf(previous), firstName: "Stale", updatedAt: at(6) })))
          .toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(updated)

        const resubscribed = yield* repo.update(updated, { ...changesOf(updated), unsubscribedAt: null, updatedAt: at(7) })
        expect(Option.getOrThrow(resubscribed).unsubscribedAt).toBeNull()
        const renamed = yield* repo.update(updated, { ...changesOf(updated), firstName: "Same status", updatedAt: at(8) })
        expect(Option.isNone(renamed)).toBe(true)

        expect(yield* repo.delete(saved.id)).toBe(true)
        expect(Option.isNone(yield* repo.update(updated, changesOf(updated)))).toBe(true)
      })))

    it.effect("writes nothing when the new email belongs to another subscriber of the list", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const [one, two] = [yield* aList, yield* aList]
        yield* subscribe(one, { email: "a@example.com" })
        const b = yield* subscribe(one, { email: "b@example.com", subscribedAt: null })
        yield* subscribe(two, { email: "c@example.com" })

        expect(Option.isNone(yield* repo.update(b, { ...changesOf(b), email: "a@example.com", subscribedAt: at(4) }))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(b.id))).toEqual(b)
        expect(yield* activeCount(one)).toBe(1)
        const moved = Option.getOrThrow(yield* repo.update(b, { ...changesOf(b), email: "c@example.com", updatedAt: at(4) }))
        expect(moved.email).toBe("c@example.com")
        expect(yield* repo.count({ emailListId: one })).toBe(2)
      })))

    it.effect("keeps a transaction usable after an update refused for a taken email", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const { withTransaction } = yield* Transactor
        const one = yield* aList
        yield* subscribe(one, { email: "a@example.com" })
        const b = yield* subscribe(one, { email: "b@example.com" })
        const renamed = yield* withTransaction(Effect.gen(function*() {
          expect(Option.isNone(yield* repo.update(b, { ...changesOf(b), email: "a@example.com" }))).toBe(true)
          return yield* repo.update(b, { ...changesOf(b), firstName: "Bea", updatedAt: at(3) })
        }))
        expect(Option.getOrThrow(renamed).firstName).toBe("Bea")
      })))

    it.effect("deletes once, with its tag links, freeing the email", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const one = yield* aList
        const [vip, news] = yield* tagsOf(one, "vip", "news")
        const saved = yield* subscribe(one, { email: "a@example.com" })
        const other = yield* subscribe(one, { email: "b@example.com" })
        yield* tagged(saved, [vip!, news!])
        yield* tagged(other, [vip!])
        expect(yield* repo.delete(saved.id)).toBe(true)
        expect(yield* repo.delete(saved.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(saved.id))).toBe(true)
        expect(Option.isNone(yield* repo.findByEmail(one, "a@example.com"))).toBe(true)
        expect(yield* repo.tagIds(saved.id)).toEqual([])
        expect(yield* matching({ emailListId: one, tags: { ids: [vip!, news!], all: false } })).toEqual(["b@example.com"])
        expect(Option.getOrThrow(yield* repo.findById(other.id)).tags).toEqual(["vip"])
        const back = yield* subscribe(one, { email: "a@example.com" })
        expect(back.tags).toEqual([])
        expect(yield* repo.tagIds(back.id)).toEqual([])
      })))

    it.effect("adds and removes tags, listing their names sorted", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const one = yield* aList
        const [beta, alpha, gamma] = yield* tagsOf(one, "beta", "Alpha", "gamma")
        const saved = yield* subscribe(one)
        yield* repo.addTags(saved.id, [gamma!, alpha!])
        expect(Option.getOrThrow(yield* repo.findById(saved.id)).tags).toEqual(["Alpha", "gamma"])
        yield* repo.addTags(saved.id, [beta!, alpha!])
        expect(Option.getOrThrow(yield* repo.findById(saved.id)).tags).toEqual(["Alpha", "beta", "gamma"])
        expect([...(yield* repo.tagIds(saved.id))].sort((a, b) => a - b)).toEqual([beta!, alpha!, gamma!])
        expect((yield* page({ emailListId: one })).items[0]?.tags).toEqual(["Alpha", "beta", "gamma"])
        // a later page carries each of its subscribers' own tags, and no one else's
        const other = yield* subscribe(one, { email: "other@example.com" })
        yield* repo.addTags(other.id, [beta!])
        const byEmail = (found: { readonly items: ReadonlyArray<{ readonly email: string; readonly tags: ReadonlyArray<string> }> }) =>
          found.items.map((item) => [item.email, item.tags])
        expect(byEmail(yield* page({ emailListId: one }, { sort: "email", perPage: 1, page: 2 }))).toEqual([[saved.email, ["Alpha", "beta", "gamma"]]])
        expect(byEmail(yield* page({ emailListId: one }, { sort: "email", perPage: 1, page: 1 }))).toEqual([["other@example.com", ["beta"]]])
        yield* repo.removeTags(saved.id, [beta!, 999 as TagId])
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid)).tags).toEqual(["Alpha", "gamma"])
        yield* repo.removeTags(saved.id, [alpha!, gamma!])
        expect(Option.getOrThrow(yield* repo.findByEmail(one, saved.email)).tags).toEqual([])
        expect(yield* repo.tagIds(saved.id)).toEqual([])
      })))

    it.effect("orders tag names by code point, as compareTagNames does", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const one = yield* aList
        // U+FF42 sorts before U+1F600 by code point, after it by UTF-16 unit; "a-c" before "ab" (no locale rules)
        const names = ["\u{1F600} smile", "\uFF42 wide", "ab", "a-c", "Zed"]
        const tags = yield* tagsOf(one, ...names)
        const saved = yield* subscribe(one)
        yield* repo.addTags(saved.id, tags.map((tag) => tag!))
        const expected = ["a-c", "ab", "Zed", "\uFF42 wide", "\u{1F600} smile"]
        expect([...names].sort(compareTagNames)).toEqual(expected)
        expect(Option.getOrThrow(yield* repo.findById(saved.id)).tags).toEqual(expected)
        expect((yield* page({ emailListId: one })).items[0]?.tags).toEqual(expected)
      })))

    it.effect("keeps the list's active count and per-status counts exact through every write", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const [one, two] = [yield* aList, yield* aList]
        const counts = (emailListId: EmailListId) =>
          Effect.all([
            activeCount(emailListId),
            repo.count({ emailListId }),
            repo.count({ emailListId, status: "subscribed" }),
            repo.count({ emailListId, status: "unconfirmed" }),
            repo.count({ emailListId, status: "unsubscribed" })
          ])
        const a = yield* subscribe(one, { email: "a@example.com" })
        const b = yield* subscribe(one, { email: "b@example.com" })
        const c = yield* subscribe(one, { email: "c@example.com", subscribedAt: null })
        const d = yield* subscribe(one, { email: "d@example.com", unsubscribedAt: at(1) })
        yield* subscribe(two, { email: "a@example.com" })
        expect(yield* counts(one)).toEqual([2, 4, 2, 1, 1])
        expect(yield* counts(two)).toEqual([1, 1, 1, 0, 0])

        const confirmed = Option.getOrThrow(yield* repo.update(c, { ...changesOf(c), subscribedAt: at(2) }))
        expect(yield* counts(one)).toEqual([3, 4, 3, 0, 1])
        const left = Option.getOrThrow(yield* repo.update(a, { ...changesOf(a), unsubscribedAt: at(3) }))
        expect(yield* counts(one)).toEqual([2, 4, 2, 0, 2])
        expect(Option.isNone(yield* repo.update(a, { ...changesOf(a), unsubscribedAt: at(4) }))).toBe(true)
        expect(Option.isNone(yield* repo.update(c, { ...changesOf(c), subscribedAt: at(4) }))).toBe(true)
        yield* repo.update(confirmed, { ...changesOf(confirmed), firstName: "Renamed" })
        expect(yield* counts(one)).toEqual([2, 4, 2, 0, 2])
        yield* repo.update(d, { ...changesOf(d), unsubscribedAt: null })
        expect(yield* counts(one)).toEqual([3, 4, 3, 0, 1])

        expect(yield* repo.delete(b.id)).toBe(true)
        expect(yield* counts(one)).toEqual([2, 3, 2, 0, 1])
        expect(yield* repo.delete(left.id)).toBe(true)
        expect(yield* repo.delete(left.id)).toBe(false)
        expect(yield* counts(one)).toEqual([2, 2, 2, 0, 0])
        expect(yield* counts(two)).toEqual([1, 1, 1, 0, 0])
      })))

    it.effect("undoes subscribers, tag links and counters of a transaction that fails", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const tags = yield* TagRepository
        const { withTransaction } = yield* Transactor
        const one = yield* aList
        const [vip] = yield* tagsOf(one, "vip")
        const kept = yield* subscribe(one, { email: "kept@example.com" })
        const exit = yield* Effect.exit(withTransaction(Effect.gen(function*() {
          yield* tagged(yield* subscribe(one, { email: "lost@example.com" }), [vip!])
          yield* tagged(kept, [vip!])
          yield* repo.update(kept, { ...changesOf(kept), unsubscribedAt: at(1) })
          expect(yield* activeCount(one)).toBe(1)
          return yield* Effect.fail("boom")
        })))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(yield* activeCount(one)).toBe(1)
        expect(yield* repo.count({ emailListId: one })).toBe(1)
        expect(Option.isNone(yield* repo.findByEmail(one, "lost@example.com"))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(kept.id))).toEqual(kept)
        expect(Option.getOrThrow(yield* tags.findById(vip!)).subscriberCount).toBe(0)
      })))
  })
