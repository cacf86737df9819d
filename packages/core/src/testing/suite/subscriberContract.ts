import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { SubscriberCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, SubscriberId, SubscriberUuid, TagId } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { SegmentRule } from "../../domain/SegmentRule.js"
import type { Subscriber } from "../../domain/Subscriber.js"
import type { SubscriberCriteria } from "../../domain/SubscriberCriteria.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository, type SubscriberChanges } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import { aSubscriber, aTag, anEmailList, at, type MakeStorage } from "./fixtures.js"

const emails = (page: { readonly items: ReadonlyArray<{ readonly email: string }> }) => page.items.map((s) => s.email)

/** The writable fields of a subscriber as they are, to change a few. */
const changesOf = (s: Subscriber): SubscriberChanges => ({
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  extraAttributes: s.extraAttributes,
  subscribedAt: s.subscribedAt,
  unsubscribedAt: s.unsubscribedAt,
  updatedAt: s.updatedAt
})

/** SubscriberRepository conformance, with the list and tag counters it keeps. */
export const subscriberContract = (makeStorage: MakeStorage) =>
  describe("SubscriberRepository", () => {
    const run = <A, E>(
      effect: Effect.Effect<A, E, SubscriberRepository | TagRepository | EmailListRepository | Transactor>
    ) => Effect.provide(effect, makeStorage())
    const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
    const activeCount = (id: EmailListId) =>
      Effect.flatMap(EmailListRepository, (r) => Effect.map(r.findById(id), (l) => Option.getOrThrow(l).activeSubscribersCount))
    const subscribe = (emailListId: EmailListId, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
      Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.insert(aSubscriber(emailListId, overrides)), Option.getOrThrow))
    const tagged = (subscriber: Subscriber, tagIds: ReadonlyArray<TagId>) =>
      Effect.flatMap(SubscriberRepository, (r) => r.addTags(subscriber.id, tagIds))
    const tagsOf = (emailListId: EmailListId, ...names: ReadonlyArray<string>) =>
      Effect.flatMap(TagRepository, (r) =>
        Effect.forEach(names, (name) => Effect.map(r.insertOrGet(aTag(emailListId, { name })), ({ tag }) => tag.id)))
    const page = (
      criteria: SubscriberCriteria,
      options: { readonly sort?: string; readonly page?: number; readonly perPage?: number } = {}
    ) =>
      Effect.gen(function*() {
        const query = yield* makeCollectionQuery(SubscriberCollection, options)
        const repo = yield* SubscriberRepository
        return yield* repo.page({ criteria, page: query.page, perPage: query.perPage, sort: query.sort })
      })
    /** The matching emails in email order, checked against `count`. */
    const matching = (criteria: SubscriberCriteria) =>
      Effect.gen(function*() {
        const found = yield* page(criteria, { sort: "email", perPage: 100 })
        expect(yield* Effect.flatMap(SubscriberRepository, (r) => r.count(criteria))).toBe(found.total)
        expect(found.items).toHaveLength(found.total)
        return emails(found)
      })

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
        expect(Option.isSome(yield* repo.insert(aSubscriber(two, { email: "a@example.com" })))).toBe(true)
        expect(yield* repo.count({ emailListId: one })).toBe(1)
        expect(yield* activeCount(one)).toBe(1)
        expect(yield* activeCount(two)).toBe(1)
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
        yield* repo.removeTags(saved.id, [beta!, 999 as TagId])
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid)).tags).toEqual(["Alpha", "gamma"])
        yield* repo.removeTags(saved.id, [alpha!, gamma!])
        expect(Option.getOrThrow(yield* repo.findByEmail(one, saved.email)).tags).toEqual([])
        expect(yield* repo.tagIds(saved.id)).toEqual([])
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

    it.effect("filters by exact email, status, and search in email and names ignoring case", () =>
      run(Effect.gen(function*() {
        const [one, two] = [yield* aList, yield* aList]
        yield* subscribe(one, { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" })
        yield* subscribe(one, { email: "grace@navy.mil", firstName: "Grace", lastName: "Hopper", subscribedAt: null })
        yield* subscribe(one, { email: "alan@example.org", firstName: "Alan", unsubscribedAt: at(1) })
        yield* subscribe(one, { email: "bob_smith@example.com" })
        yield* subscribe(two, { email: "ada@example.net", firstName: "Ada" })

        expect(yield* matching({ emailListId: one })).toEqual([
          "ada@example.com",
          "alan@example.org",
          "bob_smith@example.com",
          "grace@navy.mil"
        ])
        expect(yield* matching({ emailListId: one, email: "ada@example.com" })).toEqual(["ada@example.com"])
        expect(yield* matching({ emailListId: one, email: "ada@example" })).toEqual([])
        expect(yield* matching({ emailListId: one, email: "ada@example.net" })).toEqual([])
        expect(yield* matching({ emailListId: one, status: "subscribed" })).toEqual(["ada@example.com", "bob_smith@example.com"])
        expect(yield* matching({ emailListId: one, status: "unconfirmed" })).toEqual(["grace@navy.mil"])
        expect(yield* matching({ emailListId: one, status: "unsubscribed" })).toEqual(["alan@example.org"])
        expect(yield* matching({ emailListId: one, search: "LOVE" })).toEqual(["ada@example.com"])
        expect(yield* matching({ emailListId: one, search: "hop" })).toEqual(["grace@navy.mil"])
        expect(yield* matching({ emailListId: one, search: "GRACE" })).toEqual(["grace@navy.mil"])
        expect(yield* matching({ emailListId: one, search: "ala" })).toEqual(["alan@example.org"])
        expect(yield* matching({ emailListId: one, search: "Example" })).toEqual([
          "ada@example.com",
          "alan@example.org",
          "bob_smith@example.com"
        ])
        expect(yield* matching({ emailListId: one, search: "_" })).toEqual(["bob_smith@example.com"])
        expect(yield* matching({ emailListId: one, search: "%" })).toEqual([])
        expect(yield* matching({ emailListId: one, search: "example", status: "subscribed" })).toEqual([
          "ada@example.com",
          "bob_smith@example.com"
        ])
        expect(yield* matching({ emailListId: one, email: "ada@example.com", status: "unsubscribed" })).toEqual([])
      })))

    it.effect("searches names ignoring case beyond ASCII", () =>
      run(Effect.gen(function*() {
        const one = yield* aList
        yield* subscribe(one, { email: "a@example.com", firstName: "Ärger", lastName: "Øster" })
        yield* subscribe(one, { email: "b@example.com", firstName: "Bob" })
        expect(yield* matching({ emailListId: one, search: "ärg" })).toEqual(["a@example.com"])
        expect(yield* matching({ emailListId: one, search: "ØSTER" })).toEqual(["a@example.com"])
      })))

    it.effect("filters by any or every one of several tags, whatever the status", () =>
      run(Effect.gen(function*() {
        const [one, two] = [yield* aList, yield* aList]
        const [a, b, c] = yield* tagsOf(one, "a", "b", "c")
        const [elsewhere] = yield* tagsOf(two, "a")
        yield* tagged(yield* subscribe(one, { email: "s1@example.com" }), [a!, b!])
        yield* tagged(yield* subscribe(one, { email: "s2@example.com", unsubscribedAt: at(1) }), [a!])
        yield* tagged(yield* subscribe(one, { email: "s3@example.com", subscribedAt: null }), [b!, c!])
        yield* subscribe(one, { email: "s4@example.com" })
        yield* tagged(yield* subscribe(two, { email: "s5@example.com" }), [elsewhere!])

        const tags = (ids: ReadonlyArray<TagId>, all: boolean) => matching({ emailListId: one, tags: { ids, all } })
        expect(yield* tags([a!, b!], false)).toEqual(["s1@example.com", "s2@example.com", "s3@example.com"])
        expect(yield* tags([a!, b!], true)).toEqual(["s1@example.com"])
        expect(yield* tags([c!], false)).toEqual(["s3@example.com"])
        expect(yield* tags([c!], true)).toEqual(["s3@example.com"])
        expect(yield* tags([a!, c!], true)).toEqual([])
        expect(yield* tags([elsewhere!], false)).toEqual([])
        expect(yield* matching({ emailListId: one, tags: { ids: [a!], all: false }, status: "subscribed" })).toEqual([
          "s1@example.com"
        ])
        expect(yield* matching({ emailListId: one, tags: { ids: [b!], all: false }, search: "s3" })).toEqual(["s3@example.com"])
      })))

    it.effect("selects a segment's subscribed members by positive and negative tags", () =>
      run(Effect.gen(function*() {
        const one = yield* aList
        const [p1, p2, n1, n2] = yield* tagsOf(one, "p1", "p2", "n1", "n2")
        yield* tagged(yield* subscribe(one, { email: "s1@example.com" }), [p1!])
        yield* tagged(yield* subscribe(one, { email: "s2@example.com" }), [p1!, p2!])
        yield* tagged(yield* subscribe(one, { email: "s3@example.com", unsubscribedAt: at(1) }), [p1!, p2!])
        yield* tagged(yield* subscribe(one, { email: "s4@example.com" }), [p1!, n1!])
        yield* tagged(yield* subscribe(one, { email: "s5@example.com" }), [p1!, n1!, n2!])
        yield* subscribe(one, { email: "s6@example.com" })
        yield* tagged(yield* subscribe(one, { email: "s7@example.com", subscribedAt: null }), [p1!, p2!])

        const segment = (rule: Partial<SegmentRule>) =>
          matching({ emailListId: one, segment: { positive: [], negative: [], allPositive: false, allNegative: false, ...rule } })
        const s = (...n: ReadonlyArray<number>) => n.map((i) => `s${i}@example.com`)
        expect(yield* segment({})).toEqual(s(1, 2, 4, 5, 6))
        expect(yield* segment({ positive: [p1!, p2!] })).toEqual(s(1, 2, 4, 5))
        expect(yield* segment({ positive: [p2!] })).toEqual(s(2))
        expect(yield* segment({ positive: [p1!, p2!], allPositive: true })).toEqual(s(2))
        expect(yield* segment({ negative: [n1!, n2!] })).toEqual(s(1, 2, 6))
        expect(yield* segment({ negative: [n1!, n2!], allNegative: true })).toEqual(s(1, 2, 4, 6))
        expect(yield* segment({ positive: [p1!], negative: [n1!] })).toEqual(s(1, 2))
        expect(yield* segment({ positive: [p1!, p2!], allPositive: true, negative: [n1!, n2!], allNegative: true }))
          .toEqual(s(2))
        expect(yield* segment({ positive: [n1!, n2!], allPositive: true, negative: [p2!] })).toEqual(s(5))
        expect(yield* matching({
          emailListId: one,
          status: "unsubscribed",
          segment: { positive: [p1!], negative: [], allPositive: false, allNegative: false }
        })).toEqual([])
      })))

    it.effect("sorts newest first by default, and by email, first_name and subscribed_at either way", () =>
      run(Effect.gen(function*() {
        const one = yield* aList
        yield* subscribe(one, { email: "carol@example.com", firstName: "carol", createdAt: at(2), subscribedAt: at(30) })
        yield* subscribe(one, { email: "alice@example.com", firstName: "Bob", createdAt: at(1), subscribedAt: at(10) })
        yield* subscribe(one, { email: "bob@example.com", firstName: null, createdAt: at(2), subscribedAt: null })
        yield* subscribe(one, { email: "dave@example.com", firstName: "alice", createdAt: at(3), subscribedAt: at(20) })
        const sorted = (sort?: string) => Effect.map(page({ emailListId: one }, sort === undefined ? {} : { sort }), emails)
        const short = (...names: ReadonlyArray<string>) => names.map((name) => `${name}@example.com`)

        expect(yield* sorted()).toEqual(short("dave", "bob", "carol", "alice"))
        expect(yield* sorted("-created_at")).toEqual(short("dave", "bob", "carol", "alice"))
        expect(yield* sorted("created_at")).toEqual(short("alice", "carol", "bob", "dave"))
        expect(yield* sorted("email")).toEqual(short("alice", "bob", "carol", "dave"))
        expect(yield* sorted("-email")).toEqual(short("dave", "carol", "bob", "alice"))
        expect(yield* sorted("first_name")).toEqual(short("bob", "dave", "alice", "carol"))
        expect(yield* sorted("-first_name")).toEqual(short("carol", "alice", "dave", "bob"))
        expect(yield* sorted("subscribed_at")).toEqual(short("bob", "alice", "dave", "carol"))
        expect(yield* sorted("-subscribed_at")).toEqual(short("carol", "dave", "alice", "bob"))
        expect(yield* sorted("created_at,-email")).toEqual(short("alice", "carol", "bob", "dave"))
      })))

    it.effect("pages with a total, scoped to the list", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const [one, two] = [yield* aList, yield* aList]
        for (let i = 1; i <= 23; i++) {
          yield* subscribe(one, { email: `s${String(i).padStart(2, "0")}@example.com`, createdAt: at(i), subscribedAt: i % 2 === 0 ? at(i) : null })
        }
        yield* subscribe(two, { email: "other@example.com" })
        const first = yield* page({ emailListId: one })
        expect(first.total).toBe(23)
        expect(emails(first)).toHaveLength(15)
        expect(emails(first)[0]).toBe("s23@example.com")
        const third = yield* page({ emailListId: one }, { sort: "email", page: 3, perPage: 10 })
        expect(emails(third)).toEqual(["s21@example.com", "s22@example.com", "s23@example.com"])
        expect(third.total).toBe(23)
        expect(yield* page({ emailListId: one }, { page: 5, perPage: 10 })).toEqual({ items: [], total: 23 })
        const subscribed = yield* page({ emailListId: one, status: "subscribed" }, { sort: "email", perPage: 5, page: 2 })
        expect(emails(subscribed)).toEqual(["s12@example.com", "s14@example.com", "s16@example.com", "s18@example.com", "s20@example.com"])
        expect(subscribed.total).toBe(11)
        expect(yield* repo.count({ emailListId: one })).toBe(23)
        expect(yield* repo.count({ emailListId: one, status: "unconfirmed" })).toBe(12)
        expect(yield* repo.count({ emailListId: one, search: "s1" })).toBe(10)
        expect(yield* repo.count({ emailListId: 999 as EmailListId })).toBe(0)
        expect(yield* page({ emailListId: 999 as EmailListId })).toEqual({ items: [], total: 0 })
      })))
  })
