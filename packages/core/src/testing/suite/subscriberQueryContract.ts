import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { EmailListId, TagId } from "../../domain/Ids.js"
import type { SegmentRule } from "../../domain/SegmentRule.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { at, type MakeStorage } from "./fixtures.js"
import { emails, subscriberFixtures } from "./subscriberFixtures.js"

/** SubscriberRepository conformance: filters, segments, sorts and paging. */
export const subscriberQueryContract = (makeStorage: MakeStorage) =>
  describe("SubscriberRepository queries", () => {
    const { aList, matching, page, run, subscribe, tagged, tagsOf } = subscriberFixtures(makeStorage)
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
