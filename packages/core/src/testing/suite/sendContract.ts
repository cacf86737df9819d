import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Campaign } from "../../domain/Campaign.js"
import type { SendId, SendUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { SegmentRule } from "../../domain/SegmentRule.js"
import { Send } from "../../domain/Send.js"
import { CampaignRepository } from "../../ports/CampaignRepository.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"

/** A segment rule with only the given conditions. */
const rule = (overrides: Partial<SegmentRule>): SegmentRule => ({
  positive: [],
  negative: [],
  allPositive: false,
  allNegative: false,
  ...overrides
})

/** SendRepository conformance: freezing the audience in batches, finding and deleting sends. */
export const sendContract = (makeStorage: MakeStorage) =>
  describe("SendRepository", () => {
    const { aList, audience, campaign, found, freeze, run, sendsOf, subscribe, suppress, tagsOf } = campaignFixtures(makeStorage)
    const recipients = (c: Campaign) => Effect.map(sendsOf(c), (sends) => sends.map((s) => s.subscriberId))

    it.effect("freezes one pending send per subscribed member of the list, skipping unconfirmed, unsubscribed and suppressed ones", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const [one, two] = [yield* aList, yield* aList]
        const a = yield* subscribe(one, { email: "a@example.com" })
        yield* subscribe(two, { email: "other-list@example.com" })
        yield* subscribe(one, { email: "unconfirmed@example.com", subscribedAt: null })
        yield* subscribe(one, { email: "gone@example.com", unsubscribedAt: at(0) })
        yield* subscribe(one, { email: "blocked@example.com" })
        const e = yield* subscribe(one, { email: "e@example.com" })
        yield* suppress("blocked@example.com")
        const c = yield* campaign({ emailListId: one, status: "sending" })

        expect(yield* freeze(c, { at: at(5) })).toEqual({ covered: 5, lastSubscriberId: e.id })
        const frozen = yield* sendsOf(c)
        expect(frozen.map((s) => [s.subscriberId, s.email])).toEqual([[a.id, "a@example.com"], [e.id, "e@example.com"]])
        expect(frozen[0]).toEqual(new Send({
          id: frozen[0]!.id,
          uuid: frozen[0]!.uuid,
          campaignId: c.id,
          transactionalMailId: null,
          automationMailId: null,
          subscriberId: a.id,
          email: "a@example.com",
          transportMessageId: null,
          sentAt: null,
          failedAt: null,
          failureReason: null,
          attempts: 0,
          deliveryUncertain: false,
          openCount: 0,
          clickCount: 0,
          firstOpenedAt: null,
          lastOpenedAt: null,
          firstClickedAt: null,
          lastClickedAt: null,
          createdAt: at(5),
          updatedAt: at(5)
        }))
        expect(frozen[0]!.uuid).not.toBe(frozen[1]!.uuid)
        expect(yield* sends.pendingCount(c.id)).toBe(2)
        expect(yield* sends.sentCount(c.id)).toBe(0)
      })))

    it.effect("adds nothing when a batch is repeated, while another campaign gets sends of its own", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const first = yield* audience(["a@example.com", "b@example.com"])
        const last = first.subscribers[1]!
        expect(yield* freeze(first.campaign, { at: at(9) })).toEqual({ covered: 2, lastSubscriberId: last.id })
        expect(yield* sendsOf(first.campaign)).toEqual(first.sends)
        expect(yield* sends.pendingCount(first.campaign.id)).toBe(2)

        const second = yield* campaign({ emailListId: first.list, status: "sending" })
        yield* freeze(second)
        const theirs = yield* sendsOf(second)
        expect(theirs.map((s) => s.subscriberId)).toEqual(first.subscribers.map((s) => s.id))
        expect(theirs.every((s) => !first.sendIds.includes(s.id))).toBe(true)
        expect(yield* sends.pendingCount(first.campaign.id)).toBe(2)
        expect(yield* sends.pendingCount(second.id)).toBe(2)
      })))

    it.effect("freezes in batches after the cursor, counting every subscriber of the list it covered", () =>
      run(Effect.gen(function*() {
        const [one, two] = [yield* aList, yield* aList]
        const empty = yield* campaign({ emailListId: two, status: "sending" })
        expect(yield* freeze(empty, { limit: 2 })).toEqual({ covered: 0, lastSubscriberId: 0 })

        const s1 = yield* subscribe(one, { email: "s1@example.com" })
        yield* subscribe(two, { email: "x@example.com" })
        const s2 = yield* subscribe(one, { email: "s2@example.com", unsubscribedAt: at(0) })
        const s3 = yield* subscribe(one, { email: "s3@example.com" })
        const s4 = yield* subscribe(one, { email: "s4@example.com" })
        yield* subscribe(two, { email: "y@example.com" })
        const s5 = yield* subscribe(one, { email: "s5@example.com" })
        const c = yield* campaign({ emailListId: one, status: "sending" })

        expect(yield* freeze(c, { after: 0, limit: 2 })).toEqual({ covered: 2, lastSubscriberId: s2.id })
        expect(yield* recipients(c)).toEqual([s1.id])
        expect(yield* freeze(c, { after: s2.id, limit: 2 })).toEqual({ covered: 2, lastSubscriberId: s4.id })
        expect(yield* freeze(c, { after: s4.id, limit: 2 })).toEqual({ covered: 1, lastSubscriberId: s5.id })
        expect(yield* freeze(c, { after: s5.id, limit: 2 })).toEqual({ covered: 0, lastSubscriberId: s5.id })
        expect(yield* recipients(c)).toEqual([s1.id, s3.id, s4.id, s5.id])
        expect(yield* freeze(c, { after: s1.id, limit: 3 })).toEqual({ covered: 3, lastSubscriberId: s4.id })
        expect(yield* recipients(c)).toEqual([s1.id, s3.id, s4.id, s5.id])
      })))

    it.effect("freezes only the subscribed members matching the segment rule", () =>
      run(Effect.gen(function*() {
        const subscribers = yield* SubscriberRepository
        const one = yield* aList
        const [vip, news] = yield* tagsOf(one, "vip", "news")
        const a = yield* subscribe(one, { email: "a@example.com" })
        const b = yield* subscribe(one, { email: "b@example.com", unsubscribedAt: at(0) })
        const c = yield* subscribe(one, { email: "c@example.com" })
        const d = yield* subscribe(one, { email: "d@example.com" })
        const e = yield* subscribe(one, { email: "e@example.com" })
        yield* subscribers.addTags(a.id, [vip!])
        yield* subscribers.addTags(b.id, [vip!])
        yield* subscribers.addTags(d.id, [vip!, news!])
        yield* subscribers.addTags(e.id, [news!])
        const frozenFor = (segment: SegmentRule) =>
          Effect.gen(function*() {
            const target = yield* campaign({ emailListId: one, status: "sending" })
            expect(yield* freeze(target, { segment })).toEqual({ covered: 5, lastSubscriberId: e.id })
            return yield* recipients(target)
          })

        expect(yield* frozenFor(rule({ positive: [vip!], negative: [news!] }))).toEqual([a.id])
        expect(yield* frozenFor(rule({ positive: [vip!, news!] }))).toEqual([a.id, d.id, e.id])
        expect(yield* frozenFor(rule({ positive: [vip!, news!], allPositive: true }))).toEqual([d.id])
        expect(yield* frozenFor(rule({ negative: [vip!, news!] }))).toEqual([c.id])
        expect(yield* frozenFor(rule({ negative: [vip!, news!], allNegative: true }))).toEqual([a.id, c.id, e.id])
        expect(yield* frozenFor(rule({}))).toEqual([a.id, c.id, d.id, e.id])
      })))

    it.effect("finds a send by uuid with the public ids of its campaign and subscriber; deleting the subscriber deletes its sends, not the campaign's counts", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [first, second], subscribers: [ada] } = yield* audience(["ada@example.com", "bob@example.com"])
        expect(Option.getOrThrow(yield* sends.findByUuid(first!.uuid))).toEqual({
          send: first,
          campaignUuid: c.uuid,
          transactionalMailUuid: null,
          automationMailUuid: null,
          subscriberUuid: ada!.uuid
        })
        expect(Option.getOrThrow(yield* sends.findByUuid(second!.uuid)).send).toEqual(second)
        expect(Option.isNone(yield* sends.findByUuid(newUuid() as SendUuid))).toBe(true)

        yield* Effect.flatMap(CampaignRepository, (r) => r.addCounters(c.id, { openCount: 2, uniqueOpenCount: 1 }, at(9)))
        yield* Effect.flatMap(SubscriberRepository, (r) => r.delete(ada!.id))
        expect(Option.isNone(yield* sends.findByUuid(first!.uuid))).toBe(true)
        expect(yield* sendsOf(c)).toEqual([second])
        expect(yield* found(c.id)).toMatchObject({ openCount: 2, uniqueOpenCount: 1 })
      })))

    it.effect("deleting an email list deletes its subscribers' sends, keeping the campaign and other lists' sends", () =>
      run(Effect.gen(function*() {
        const doomed = yield* audience(["ada@example.com", "bob@example.com"])
        const kept = yield* audience(["ada@example.com"])
        yield* Effect.flatMap(EmailListRepository, (r) => r.delete(doomed.list))
        expect(yield* sendsOf(doomed.campaign)).toEqual([])
        expect(yield* found(doomed.campaign.id)).toMatchObject({ id: doomed.campaign.id, emailListId: null })
        expect(yield* sendsOf(kept.campaign)).toEqual(kept.sends)
      })))

    it.effect("deletes a send once", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [first, second] } = yield* audience(["a@example.com", "b@example.com"])
        expect(yield* sends.delete(first!.id)).toBe(true)
        expect(yield* sends.delete(first!.id)).toBe(false)
        expect(yield* sends.delete(999 as SendId)).toBe(false)
        expect(Option.isNone(yield* sends.findByUuid(first!.uuid))).toBe(true)
        expect(yield* sendsOf(c)).toEqual([second])
        expect(yield* sends.pendingCount(c.id)).toBe(1)
      })))
  })
