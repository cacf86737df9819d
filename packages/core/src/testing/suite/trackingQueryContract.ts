import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { BounceCollection, ClickCollection, OpenCollection, UnsubscribeCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { CampaignId } from "../../domain/Ids.js"
import type { BounceRow, BounceType, ClickRow } from "../../domain/Feedback.js"
import type { Send } from "../../domain/Send.js"
import { CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"
import { changesOf } from "./subscriberFixtures.js"

type Options<S extends string, F extends string> = Parameters<typeof makeCollectionQuery<S, F, never>>[1]

const emails = (page: { readonly items: ReadonlyArray<{ readonly subscriberEmail: string }> }) =>
  page.items.map((row) => row.subscriberEmail)
const urls = (page: { readonly items: ReadonlyArray<ClickRow> }) => page.items.map((row) => row.url)

/** TrackingRepository lists conformance: a campaign's opens, clicks, unsubscribes and bounces with their sorts and filters. */
export const trackingQueryContract = (makeStorage: MakeStorage) =>
  describe("TrackingRepository lists", () => {
    const { audience, run } = campaignFixtures(makeStorage)
    const opens = (c: CampaignId, options: Options<"email" | "open_count" | "first_opened_at" | "last_opened_at", "search"> = {}) =>
      Effect.flatMap(makeCollectionQuery(OpenCollection, options), (q) => Effect.flatMap(TrackingRepository, (r) => r.opens(c, q)))
    const clicks = (c: CampaignId, options: Options<"unique_click_count" | "click_count", "search"> = {}) =>
      Effect.flatMap(makeCollectionQuery(ClickCollection, options), (q) => Effect.flatMap(TrackingRepository, (r) => r.clicks(c, q)))
    const unsubscribes = (c: CampaignId, options: Options<"created_at", "search"> = {}) =>
      Effect.flatMap(makeCollectionQuery(UnsubscribeCollection, options), (q) =>
        Effect.flatMap(TrackingRepository, (r) => r.unsubscribes(c, q)))
    const bounces = (c: CampaignId, options: Options<"email" | "bounce_count" | "created_at", "search" | "type"> = {}) =>
      Effect.flatMap(makeCollectionQuery(BounceCollection, options), (q) => Effect.flatMap(TrackingRepository, (r) => r.bounces(c, q)))
    const openAt = (send: Send | undefined, ...seconds: ReadonlyArray<number>) =>
      Effect.flatMap(TrackingRepository, (r) => Effect.forEach(seconds, (s) => r.recordOpen(send!.id, at(s), 0)))

    it.effect("lists the opened sends of the campaign, most recent first open first, sorted and searched; a deleted subscriber's open goes with it", () =>
      run(Effect.gen(function*() {
        const { campaign: c, sends: [ada, bob, cy], subscribers } = yield* audience(
          ["ada@example.com", "bob@example.com", "cy@example.org", "dee@example.com"]
        )
        const other = yield* audience(["ada@example.com"])
        yield* openAt(ada, 10, 100)
        yield* openAt(bob, 20)
        yield* openAt(cy, 5, 200, 300)
        yield* openAt(other.sends[0], 50)

        const all = yield* opens(c.id)
        expect(all.total).toBe(3)
        expect(emails(all)).toEqual(["bob@example.com", "ada@example.com", "cy@example.org"])
        expect(all.items[1]).toMatchObject({
          subscriberId: subscribers[0]!.id,
          subscriberUuid: subscribers[0]!.uuid,
          subscriberEmail: "ada@example.com",
          openCount: 2,
          firstOpenedAt: at(10),
          lastOpenedAt: at(100)
        })
        expect(emails(yield* opens(c.id, { sort: "email" }))).toEqual(["ada@example.com", "bob@example.com", "cy@example.org"])
        expect(emails(yield* opens(c.id, { sort: "-open_count" }))).toEqual(["cy@example.org", "ada@example.com", "bob@example.com"])
        expect(emails(yield* opens(c.id, { sort: "last_opened_at" }))).toEqual(["bob@example.com", "ada@example.com", "cy@example.org"])
        expect(emails(yield* opens(c.id, { sort: "first_opened_at" }))).toEqual(["cy@example.org", "ada@example.com", "bob@example.com"])
        expect(emails(yield* opens(c.id, { filters: { search: "EXAMPLE.COM" } }))).toEqual(["bob@example.com", "ada@example.com"])
        const second = yield* opens(c.id, { sort: "email", page: 2, perPage: 2 })
        expect(second.total).toBe(3)
        expect(emails(second)).toEqual(["cy@example.org"])

        yield* Effect.flatMap(SubscriberRepository, (r) => r.delete(subscribers[0]!.id))
        const left = yield* opens(c.id, { sort: "email" })
        expect([left.total, emails(left)]).toEqual([2, ["bob@example.com", "cy@example.org"]])
      })))

    it.effect("lists the campaign's links with their clicks, most unique clicks first, sorted and searched", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const links = yield* CampaignLinkRepository
        const { campaign: c, sends: [one, two] } = yield* audience(["a@example.com", "b@example.com"])
        const other = yield* audience(["x@example.com"])
        const ensured = yield* links.ensure(c.id, ["https://example.com/A", "https://example.com/b", "https://shop.test/c"])
        yield* links.ensure(other.campaign.id, ["https://example.com/A"])
        const id = (url: string) => ensured.find((l) => l.url === url)!.id
        const click = (send: Send | undefined, url: string, times = 1) =>
          Effect.repeatN(tracking.recordClick(send!.id, id(url), at(10)), times - 1)
        yield* click(one, "https://example.com/A", 2)
        yield* click(two, "https://example.com/A")
        yield* click(one, "https://example.com/b", 4)

        const all = yield* clicks(c.id)
        expect(all.total).toBe(3)
        expect(all.items.map((r) => ({ id: r.id, url: r.url, clickCount: r.clickCount, uniqueClickCount: r.uniqueClickCount })))
          .toEqual([
            { id: id("https://example.com/A"), url: "https://example.com/A", clickCount: 3, uniqueClickCount: 2 },
            { id: id("https://example.com/b"), url: "https://example.com/b", clickCount: 4, uniqueClickCount: 1 },
            { id: id("https://shop.test/c"), url: "https://shop.test/c", clickCount: 0, uniqueClickCount: 0 }
          ])
        expect(urls(yield* clicks(c.id, { sort: "click_count" })))
          .toEqual(["https://shop.test/c", "https://example.com/A", "https://example.com/b"])
        expect(urls(yield* clicks(c.id, { sort: "-click_count" })))
          .toEqual(["https://example.com/b", "https://example.com/A", "https://shop.test/c"])
        expect(urls(yield* clicks(c.id, { filters: { search: "example.com/a" } }))).toEqual(["https://example.com/A"])
        expect(urls(yield* clicks(c.id, { filters: { search: "EXAMPLE" }, page: 2, perPage: 1 }))).toEqual(["https://example.com/b"])
      })))

    it.effect("lists the campaign's unsubscribes newest first, searched by email or name", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const subscribersRepo = yield* SubscriberRepository
        const { campaign: c, sends, subscribers } = yield* audience(["ada@example.com", "bob@example.com", "cy@example.org"])
        const other = yield* audience(["ada@example.com"])
        const [ada, bob] = subscribers
        yield* subscribersRepo.update(ada!, { ...changesOf(ada!), firstName: "Ada", lastName: "Lovelace" })
        yield* subscribersRepo.update(bob!, { ...changesOf(bob!), firstName: "Robert", lastName: "Smith" })
        const unsubscribe = (index: number, seconds: number) =>
          tracking.recordUnsubscribe({
            campaignId: c.id,
            sendId: sends[index]!.id,
            subscriberId: subscribers[index]!.id,
            email: sends[index]!.email,
            at: at(seconds)
          })
        yield* unsubscribe(0, 30)
        yield* unsubscribe(1, 10)
        yield* unsubscribe(2, 20)
        yield* tracking.recordUnsubscribe({
          campaignId: other.campaign.id,
          sendId: other.sends[0]!.id,
          subscriberId: other.subscribers[0]!.id,
          email: "ada@example.com",
          at: at(40)
        })

        const all = yield* unsubscribes(c.id)
        expect(all.total).toBe(3)
        expect(emails(all)).toEqual(["ada@example.com", "cy@example.org", "bob@example.com"])
        expect(all.items[0]).toMatchObject({
          campaignId: c.id,
          subscriberId: ada!.id,
          subscriberUuid: ada!.uuid,
          subscriberEmail: "ada@example.com",
          createdAt: at(30)
        })
        expect(emails(yield* unsubscribes(c.id, { sort: "created_at" }))).toEqual(["bob@example.com", "cy@example.org", "ada@example.com"])
        expect(emails(yield* unsubscribes(c.id, { filters: { search: "love" } }))).toEqual(["ada@example.com"])
        expect(emails(yield* unsubscribes(c.id, { filters: { search: "ROBERT" } }))).toEqual(["bob@example.com"])
        expect(emails(yield* unsubscribes(c.id, { filters: { search: ".org" } }))).toEqual(["cy@example.org"])
        expect(emails(yield* unsubscribes(c.id, { page: 2, perPage: 2 }))).toEqual(["bob@example.com"])
      })))

    it.effect("lists the campaign's bounces per address and type, newest first, sorted and filtered", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const { campaign: c, list, sends: [ada, bob], subscribers } = yield* audience(["ada@example.com", "bob@example.com"])
        const listUuid = Option.getOrThrow(yield* Effect.flatMap(EmailListRepository, (r) => r.findById(list))).uuid
        const other = yield* audience(["ada@example.com"])
        const bounce = (send: Send | undefined, type: BounceType, seconds: number, campaignId = c.id) =>
          tracking.recordBounce({
            campaignId,
            sendId: send?.id ?? null,
            subscriberId: send?.subscriberId ?? null,
            email: send?.email ?? "stranger@example.com",
            type,
            at: at(seconds)
          })
        yield* bounce(ada, "bounce", 10)
        yield* bounce(bob, "soft_bounce", 15)
        yield* bounce(ada, "bounce", 20)
        yield* bounce(ada, "complaint", 30)
        yield* bounce(undefined, "bounce", 40)
        yield* bounce(other.sends[0], "bounce", 50, other.campaign.id)

        const label = (page: { readonly items: ReadonlyArray<BounceRow> }) => page.items.map((r) => `${r.subscriberEmail} ${r.type}`)
        const all = yield* bounces(c.id)
        expect(all.total).toBe(4)
        expect(label(all)).toEqual([
          "stranger@example.com bounce",
          "ada@example.com complaint",
          "bob@example.com soft_bounce",
          "ada@example.com bounce"
        ])
        expect(all.items[3]).toMatchObject({
          subscriberUuid: subscribers[0]!.uuid,
          subscriberEmail: "ada@example.com",
          subscriberEmailListUuid: listUuid,
          type: "bounce",
          bounceCount: 2,
          createdAt: at(10)
        })
        expect(all.items[0]).toMatchObject({ subscriberUuid: null, subscriberEmailListUuid: null, bounceCount: 1 })
        expect(label(yield* bounces(c.id, { sort: "email" })))
          .toEqual(["ada@example.com bounce", "ada@example.com complaint", "bob@example.com soft_bounce", "stranger@example.com bounce"])
        expect(label(yield* bounces(c.id, { sort: "-bounce_count" })))
          .toEqual(["ada@example.com bounce", "stranger@example.com bounce", "ada@example.com complaint", "bob@example.com soft_bounce"])
        expect(label(yield* bounces(c.id, { sort: "created_at" }))[0]).toBe("ada@example.com bounce")
        expect(label(yield* bounces(c.id, { filters: { type: "bounce" } })))
          .toEqual(["stranger@example.com bounce", "ada@example.com bounce"])
        expect(label(yield* bounces(c.id, { filters: { type: "complaint", search: "ADA" } }))).toEqual(["ada@example.com complaint"])
        expect(label(yield* bounces(c.id, { filters: { search: "bob" } }))).toEqual(["bob@example.com soft_bounce"])
      })))
  })
