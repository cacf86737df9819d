import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { BounceCollection, UnsubscribeCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { CampaignId, CampaignLinkId, SendId } from "../../domain/Ids.js"
import { CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"

const MINUTE = 60_000

/** TrackingRepository conformance: each engagement event is counted on the send and link, telling which are first. */
export const trackingContract = (makeStorage: MakeStorage) =>
  describe("TrackingRepository", () => {
    const { audience, campaign, freeze, run, sendFor, sendsOf } = campaignFixtures(makeStorage)
    const link = (id: CampaignLinkId) => Effect.flatMap(CampaignLinkRepository, (r) => Effect.map(r.findById(id), Option.getOrThrow))
    const unsubscribesOf = (campaignId: CampaignId) =>
      Effect.flatMap(makeCollectionQuery(UnsubscribeCollection, { sort: "created_at" }), (q) =>
        Effect.flatMap(TrackingRepository, (r) => r.unsubscribes(campaignId, q)))
    const bouncesOf = (campaignId: CampaignId) =>
      Effect.flatMap(makeCollectionQuery(BounceCollection, { sort: "email" }), (q) =>
        Effect.flatMap(TrackingRepository, (r) => r.bounces(campaignId, q)))

    it.effect("counts an open unless the send was opened within the debounce time, telling the send's first", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const { sends: [one, two] } = yield* audience(["a@example.com", "b@example.com"])
        const open = (send: typeof one, seconds: number, debounceMs = MINUTE) => tracking.recordOpen(send!.id, at(seconds), debounceMs)

        expect(yield* open(one, 10)).toEqual({ counted: true, first: true })
        const opened = yield* sendFor(one!)
        expect(opened.openCount).toBe(1)
        expect(opened.firstOpenedAt).toEqual(at(10))
        expect(opened.lastOpenedAt).toEqual(at(10))

        expect(yield* open(one, 40)).toEqual({ counted: false, first: false })
        expect(yield* open(one, 69)).toEqual({ counted: false, first: false })
        expect((yield* sendFor(one!)).lastOpenedAt).toEqual(at(10))
        expect(yield* open(one, 71)).toEqual({ counted: true, first: false })
        expect(yield* open(one, 120)).toEqual({ counted: false, first: false })
        const twice = yield* sendFor(one!)
        expect(twice.openCount).toBe(2)
        expect(twice.firstOpenedAt).toEqual(at(10))
        expect(twice.lastOpenedAt).toEqual(at(71))

        expect(yield* open(two, 72)).toEqual({ counted: true, first: true })
        expect(yield* open(one, 200, 0)).toEqual({ counted: true, first: false })
        expect(yield* open(one, 201, 0)).toEqual({ counted: true, first: false })
        expect((yield* sendFor(one!)).openCount).toBe(4)
        expect((yield* sendFor(two!)).openCount).toBe(1)
        expect(yield* tracking.recordOpen(999 as SendId, at(300), MINUTE)).toEqual({ counted: false, first: false })
      })))

    it.effect("counts clicks on the send and the link, telling the first for the send and for the link", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const links = yield* CampaignLinkRepository
        const { campaign: c, sends: [one, two] } = yield* audience(["a@example.com", "b@example.com"])
        const ensured = yield* links.ensure(c.id, ["https://example.com/a", "https://example.com/b"])
        const a = ensured.find((l) => l.url === "https://example.com/a")!.id
        const b = ensured.find((l) => l.url === "https://example.com/b")!.id

        expect(yield* tracking.recordClick(one!.id, a, at(10))).toEqual({ firstForSend: true, firstForLink: true })
        expect(yield* tracking.recordClick(one!.id, a, at(11))).toEqual({ firstForSend: false, firstForLink: false })
        expect(yield* tracking.recordClick(one!.id, b, at(12))).toEqual({ firstForSend: false, firstForLink: true })
        expect(yield* tracking.recordClick(two!.id, a, at(13))).toEqual({ firstForSend: true, firstForLink: true })

        expect(yield* link(a)).toMatchObject({ url: "https://example.com/a", clickCount: 3, uniqueClickCount: 2 })
        expect(yield* link(b)).toMatchObject({ url: "https://example.com/b", clickCount: 1, uniqueClickCount: 1 })
        const clicked = yield* sendFor(one!)
        expect(clicked).toMatchObject({ clickCount: 3, openCount: 0 })
        expect(clicked.firstClickedAt).toEqual(at(10))
        expect(clicked.lastClickedAt).toEqual(at(12))
        expect((yield* sendFor(two!)).clickCount).toBe(1)
      })))

    it.effect("attributes an unsubscribe to a campaign once per subscriber", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const { campaign: c, list, sends: [one, two], subscribers: [a, b] } = yield* audience(["a@example.com", "b@example.com"])
        const next = yield* campaign({ emailListId: list, status: "sending" })
        yield* freeze(next)
        const [nextToA] = yield* sendsOf(next)
        const unsubscribe = (campaignId: CampaignId, send: typeof one, subscriberId: number, seconds: number) =>
          tracking.recordUnsubscribe({ campaignId, sendId: send!.id, subscriberId, email: send!.email, at: at(seconds) })

        expect(yield* unsubscribe(c.id, one, a!.id, 5)).toBe(true)
        expect(yield* unsubscribe(c.id, one, a!.id, 6)).toBe(false)
        expect(yield* unsubscribe(c.id, two, a!.id, 7)).toBe(false)
        expect(yield* unsubscribe(c.id, two, b!.id, 8)).toBe(true)
        expect(yield* unsubscribe(next.id, nextToA, a!.id, 9)).toBe(true)

        const rows = yield* unsubscribesOf(c.id)
        expect(rows.total).toBe(2)
        expect(rows.items.map((r) => [r.subscriberId, r.subscriberEmail, r.createdAt])).toEqual([
          [a!.id, "a@example.com", at(5)],
          [b!.id, "b@example.com", at(8)]
        ])
        expect((yield* unsubscribesOf(next.id)).items.map((r) => [r.subscriberId, r.createdAt])).toEqual([[a!.id, at(9)]])
      })))

    it.effect("stores every bounce and complaint, telling the send's first", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const { campaign: c, sends: [one, two], subscribers: [a, b] } = yield* audience(["a@example.com", "b@example.com"])
        const bounce = (send: typeof one, subscriberId: number | null, type: "bounce" | "soft_bounce" | "complaint", seconds: number) =>
          tracking.recordBounce({
            campaignId: c.id,
            sendId: send?.id ?? null,
            subscriberId,
            email: send?.email ?? "stranger@example.com",
            type,
            at: at(seconds)
          })

        expect(yield* bounce(one, a!.id, "bounce", 5)).toBe(true)
        expect(yield* bounce(one, a!.id, "bounce", 6)).toBe(false)
        expect(yield* bounce(one, a!.id, "complaint", 7)).toBe(false)
        expect(yield* bounce(two, b!.id, "soft_bounce", 8)).toBe(true)
        expect(yield* bounce(undefined, null, "bounce", 9)).toBe(false)
        expect(yield* bounce(undefined, null, "bounce", 10)).toBe(false)
        expect(yield* tracking.recordBounce({
          campaignId: null,
          sendId: null,
          subscriberId: null,
          email: "a@example.com",
          type: "complaint",
          at: at(11)
        })).toBe(false)

        const rows = yield* bouncesOf(c.id)
        expect(rows.items.map((r) => [r.subscriberEmail, r.type, r.bounceCount])).toEqual([
          ["a@example.com", "bounce", 2],
          ["a@example.com", "complaint", 1],
          ["b@example.com", "soft_bounce", 1],
          ["stranger@example.com", "bounce", 2]
        ])
      })))

    it.effect("counts an address's soft bounces since its latest mail that went out without bouncing", () =>
      run(Effect.gen(function*() {
        const tracking = yield* TrackingRepository
        const sends = yield* SendRepository
        const mails = yield* Effect.forEach([1, 2, 3, 4], () => audience(["x@example.com", "y@example.com"]))
        const [first, second, third, fourth] = mails.map((m) => m.sends[0]!)
        const sent = (send: typeof first, seconds: number) =>
          sends.record([{ _tag: "Sent", id: send!.id, transportMessageId: null }], at(seconds))
        const bounce = (email: string, send: typeof first | null, type: "bounce" | "soft_bounce", seconds: number) =>
          tracking.recordBounce({ campaignId: null, sendId: send?.id ?? null, subscriberId: null, email, type, at: at(seconds) })
        const streak = (email: string) => tracking.softBounceStreak(email)

        expect(yield* streak("x@example.com")).toBe(0)
        yield* sent(first, 10)
        yield* sent(second, 20)
        yield* bounce("x@example.com", second, "soft_bounce", 21)
        expect(yield* streak("x@example.com")).toBe(1)
        yield* sent(third, 30)
        yield* bounce("x@example.com", third, "soft_bounce", 31)
        yield* bounce("x@example.com", null, "soft_bounce", 32)
        yield* bounce("x@example.com", null, "bounce", 33)
        expect(yield* streak("x@example.com")).toBe(3)
        yield* bounce("y@example.com", null, "soft_bounce", 34)
        expect(yield* streak("y@example.com")).toBe(1)
        yield* sent(fourth, 40)
        expect(yield* streak("x@example.com")).toBe(0)
        yield* bounce("x@example.com", null, "soft_bounce", 41)
        expect(yield* streak("x@example.com")).toBe(1)
      })))
  })
