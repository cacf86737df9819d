import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import type { DomainEvent } from "../../events/DomainEvent.js"
import { EventOutbox } from "../../events/EventOutbox.js"
import { newEvent } from "../../events/NewEvent.js"
import { START } from "../../events/EventPosition.js"
import { CampaignRepository } from "../../ports/CampaignRepository.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { ImportBatchRepository } from "../../ports/ImportBatchRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { aSubscriber, at, type MakeStorage } from "./fixtures.js"
import { importFixtures } from "./importFixtures.js"
import { changesOf } from "./subscriberFixtures.js"

/** 50 ms of real time (the tests' clock is a TestClock). */
const pause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))

/**
 * Every event readable now, and at least `count` of them. On Postgres a read sees only transactions older than the
 * oldest one running, so while another connection (a test in another file) holds a transaction open, the latest events
 * wait: read until there are `count` and the count stops growing for 150 ms of real time (2 s at most once there are
 * `count`, 10 s in all).
 */
export const recordedAtLeast = (count: number) =>
  Effect.gen(function*() {
    const outbox = yield* EventOutbox
    let events = (yield* outbox.read(START, 1_000)).events
    for (let stable = 0, tries = 0, waited = 0; (stable < 3 || events.length < count) && tries < 40 && waited < 200; waited++) {
      yield* pause
      const again = (yield* outbox.read(START, 1_000)).events
      stable = again.length === events.length ? stable + 1 : 0
      if (again.length >= count) tries++
      events = again
    }
    return events
  })

/** Every event readable now (see recordedAtLeast). */
export const recorded = recordedAtLeast(0)

/**
 * Every event readable once the one with this `line` is (read again 50 ms of real time apart, 10 s at most): the
 * events of a test's set-up, whose last one it names, all counted before what the test does next.
 */
export const recordedThrough = (last: string) =>
  Effect.gen(function*() {
    const outbox = yield* EventOutbox
    let events = (yield* outbox.read(START, 1_000)).events
    for (let tries = 0; !events.some((event) => line(event) === last) && tries < 200; tries++) {
      yield* pause
      events = (yield* outbox.read(START, 1_000)).events
    }
    return events
  })

/**
 * A claim of `count` events from the beginning for `consumer`, taken again (50 ms of real time apart, 10 s at most) until
 * it holds that many: on Postgres a claim, like a read, waits for transactions another connection holds open.
 */
const claimed = (consumer: string, count: number) =>
  Effect.gen(function*() {
    const outbox = yield* EventOutbox
    const { withTransaction } = yield* Transactor
    for (let tries = 0; ; tries++) {
      const claim = Option.getOrThrow(yield* withTransaction(outbox.claim(consumer, { limit: count, start: "beginning" })))
      if (claim.events.length >= count || tries >= 200) return claim
      yield* pause
    }
  })

/** An event as a `type subscriber-id [tag]` line. */
export const line = (event: DomainEvent) =>
  [event.type, event.subscriberId ?? "-", ...(event.data?.["tag"] === undefined ? [] : [String(event.data["tag"])])].join(" ")

/** The outbox contract: the events each repository records with its writes, and consumers' positions. */
export const eventsContract = (makeStorage: MakeStorage) =>
  describe("EventOutbox", () => {
    const { aList, run, subscribe, tagsOf } = campaignFixtures(makeStorage)

    it.effect("records a subscriber's creation, status changes, tag changes that happened, and deletion", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const list = yield* aList
        const ada = yield* subscribe(list, { email: "ada@example.com", subscribedAt: null })
        expect(Option.isNone(yield* repo.insert(aSubscriber(list, { email: "ada@example.com", createdAt: at(5) })))).toBe(true)
        const saved = Option.getOrThrow(yield* repo.update(ada, { ...changesOf(ada), subscribedAt: at(10), updatedAt: at(10) }))
        const gone = Option.getOrThrow(yield* repo.update(saved, { ...changesOf(saved), unsubscribedAt: at(20), updatedAt: at(20) }))
        const back = Option.getOrThrow(yield* repo.update(gone, { ...changesOf(gone), unsubscribedAt: null, updatedAt: at(30) }))
        yield* repo.update(back, { ...changesOf(back), firstName: "Ada", updatedAt: at(40) })
        const [vip, beta] = yield* tagsOf(list, "vip", "beta")
        yield* repo.addTags(ada.id, [vip!, beta!])
        yield* repo.addTags(ada.id, [vip!])
        yield* repo.removeTags(ada.id, [beta!, beta!])
        yield* repo.delete(ada.id)
        const events = yield* recorded
        const s = ada.id
        expect(events.map(line)).toEqual([
          `subscriber.created ${s}`,
          `subscriber.confirmed ${s}`,
          `subscriber.unsubscribed ${s}`,
          `subscriber.resubscribed ${s}`,
          `tag.added ${s} vip`,
          `tag.added ${s} beta`,
          `tag.removed ${s} beta`,
          `subscriber.deleted ${s}`
        ])
        expect(events.every((event) => event.emailListId === list)).toBe(true)
        expect(events[0]!.data).toEqual({ status: "unconfirmed" })
        expect(events[0]!.occurredAt).toEqual(ada.createdAt)
        expect(events[1]!.occurredAt).toEqual(at(10))
        expect(events.at(-1)!.data).toMatchObject({ uuid: ada.uuid, email: "ada@example.com", status: "subscribed" })
        expect(new Set(events.map((event) => event.id)).size).toBe(events.length)
      })))

    it.effect("records a subscriber inserted with tags: created, then each tag added by id; its counts; nothing twice", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberRepository
        const tags = yield* TagRepository
        const list = yield* aList
        const [beta, vip] = yield* tagsOf(list, "beta", "vip")
        const refs = yield* tags.refsByName(list, ["VIP", "beta"])
        const ada = Option.getOrThrow(yield* repo.insert(aSubscriber(list, { email: "ada@example.com", createdAt: at(5) }), refs))
        expect(Option.isNone(yield* repo.insert(aSubscriber(list, { email: "ada@example.com", createdAt: at(6) }), refs))).toBe(true)
        const s = ada.id
        const first = beta! < vip! ? "beta" : "vip"
        expect((yield* recorded).map(line)).toEqual([
          `subscriber.created ${s}`,
          `tag.added ${s} ${first}`,
          `tag.added ${s} ${first === "beta" ? "vip" : "beta"}`
        ])
        expect(Option.getOrThrow(yield* repo.findById(s)).tags).toEqual(["beta", "vip"])
        for (const id of [beta!, vip!]) expect(Option.getOrThrow(yield* tags.findById(id)).subscriberCount).toBe(1)
        expect(Option.getOrThrow(yield* (yield* EmailListRepository).findById(list)).activeSubscribersCount).toBe(1)
      })))

    it.effect("records nothing for a transaction that fails", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const { withTransaction } = yield* Transactor
        const exit = yield* Effect.exit(withTransaction(Effect.zipRight(subscribe(list), Effect.fail("boom"))))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(yield* recorded).toEqual([])
      })))

    it.effect("records mails sent (and transactional ones), failed, not retried ones; a campaign's start and end", () =>
      run(Effect.gen(function*() {
        const { audience } = campaignFixtures(makeStorage)
        const { campaign, list, sendIds } = yield* audience(["a@example.com", "b@example.com", "c@example.com"], { status: "draft" })
        const campaigns = yield* CampaignRepository
        yield* campaigns.transition(campaign.id, ["draft"], "sending", { updatedAt: at(5) })
        yield* campaigns.transition(campaign.id, ["sending"], "paused", { updatedAt: at(6) })
        yield* campaigns.transition(campaign.id, ["paused"], "sending", { updatedAt: at(7) })
        const before = (yield* recorded).length
        yield* (yield* SendRepository).record([
          { _tag: "Sent", id: sendIds[0]!, transportMessageId: "<m1@example.com>" },
          { _tag: "Failed", id: sendIds[1]!, reason: "550 no such user", attempted: true },
          { _tag: "Retry", id: sendIds[2]!, reason: "421 later", retryAt: at(100) }
        ], at(50))
        yield* campaigns.transition(campaign.id, ["sending"], "sent", { sentAt: at(60), updatedAt: at(60) })
        const events = yield* recorded
        expect(events.filter((e) => e.type.startsWith("campaign.")).map((e) => [e.type, e.campaignId, e.emailListId])).toEqual([
          ["campaign.sending", campaign.id, list],
          ["campaign.sent", campaign.id, list]
        ])
        const mails = events.slice(before).filter((e) => e.type.startsWith("mail."))
        expect(mails.map((e) => [e.type, e.sendId, e.campaignId, e.emailListId]).sort()).toEqual([
          ["mail.failed", sendIds[1], campaign.id, list],
          ["mail.sent", sendIds[0], campaign.id, list]
        ].sort())
        expect(mails.every((e) => e.occurredAt.getTime() === at(50).getTime())).toBe(true)
      })))

    it.effect("records an import's new subscribers, status changes, net tag changes, bulk unsubscribes and completion", () =>
      Effect.gen(function*() {
        const fixtures = importFixtures(makeStorage)
        yield* fixtures.run(Effect.gen(function*() {
          const list = yield* fixtures.aList
          const kept = yield* fixtures.subscribe(list, { email: "kept@example.com" })
          const other = yield* fixtures.subscribe(list, { email: "other@example.com" })
          const [old] = yield* fixtures.tagsOf(list, "old")
          yield* (yield* SubscriberRepository).addTags(kept.id, [old!])
          const skip = (yield* recorded).length
          const subscriberImport = yield* fixtures.importing(list, { replaceTags: true, unsubscribeOthers: true })
          yield* fixtures.write(subscriberImport, ["new@example.com,new", "kept@example.com,new"], { header: "email,tags", at: at(100) })
          const created = Option.getOrThrow(yield* (yield* SubscriberRepository).findByEmail(list, "new@example.com"))
          yield* (yield* ImportBatchRepository).unsubscribeOthers(subscriberImport.id, list, at(110))
          yield* (yield* SubscriberImportRepository).transition(subscriberImport.id, ["importing"], "completed", { finishedAt: at(120), updatedAt: at(120) })
          const events = (yield* recorded).slice(skip)
          expect(events.map(line).sort()).toEqual([
            `import.completed -`,
            `subscriber.created ${created.id}`,
            `subscriber.unsubscribed ${other.id}`,
            `tag.added ${created.id} new`,
            `tag.added ${kept.id} new`,
            `tag.removed ${kept.id} old`
          ].sort())
          expect(events.find((e) => e.type === "import.completed")).toMatchObject({ refId: subscriberImport.id, emailListId: list })
          expect(events.every((e) => e.emailListId === list)).toBe(true)
        }))
      }))

    it.effect("keeps each consumer's position: a new one starts at the end or the beginning, and moves when told", () =>
      run(Effect.gen(function*() {
        const outbox = yield* EventOutbox
        const { withTransaction } = yield* Transactor
        const event = (n: number) => newEvent("campaign.sent", at(n), { campaignId: n })
        yield* outbox.append([event(1), event(2)])
        const late = Option.getOrThrow(yield* withTransaction(outbox.claim("late", { limit: 10, start: "end" })))
        expect(late.events).toEqual([])
        const early = Option.getOrThrow(yield* withTransaction(outbox.claim("early", { limit: 1, start: "beginning" })))
        expect(early.events.map((e) => e.campaignId)).toEqual([1])
        yield* withTransaction(outbox.advance("early", early.next))
        yield* outbox.append([event(3)])
        const next = Option.getOrThrow(yield* withTransaction(outbox.claim("early", { limit: 10, start: "beginning" })))
        expect(next.events.map((e) => e.campaignId)).toEqual([2, 3])
        const lateNext = Option.getOrThrow(yield* withTransaction(outbox.claim("late", { limit: 10, start: "beginning" })))
        expect(lateNext.events.map((e) => e.campaignId)).toEqual([3])
        expect(Option.isSome(yield* outbox.position("early"))).toBe(true)
        expect(Option.isNone(yield* outbox.position("never"))).toBe(true)
      })))

    it.effect("prunes old events every consumer has read, and only those", () =>
      run(Effect.gen(function*() {
        const outbox = yield* EventOutbox
        const { withTransaction } = yield* Transactor
        yield* outbox.append([1, 2, 3].map((n) => newEvent("campaign.sent", at(n), { campaignId: n })))
        const first = yield* claimed("reader", 2)
        yield* withTransaction(outbox.advance("reader", first.next))
        expect(yield* outbox.prune(at(2))).toBe(1)
        expect((yield* recorded).map((e) => e.campaignId)).toEqual([2, 3])
        expect(yield* outbox.prune(at(1_000))).toBe(1)
        expect((yield* recorded).map((e) => e.campaignId)).toEqual([3])
      })))

    it.effect("prunes from the oldest up to the first recent event; one dated far ahead (a clock that ran ahead) does not stop it", () =>
      run(Effect.gen(function*() {
        const outbox = yield* EventOutbox
        const { withTransaction } = yield* Transactor
        const farAhead = new Date(at(5).getTime() + 40 * 86_400_000)
        yield* outbox.append([
          newEvent("campaign.sent", at(1), { campaignId: 1 }),
          newEvent("campaign.sent", farAhead, { campaignId: 2 }),
          newEvent("campaign.sent", at(2), { campaignId: 3 }),
          newEvent("campaign.sent", at(10), { campaignId: 4 }),
          newEvent("campaign.sent", at(3), { campaignId: 5 })
        ])
        const all = yield* claimed("reader", 5)
        yield* withTransaction(outbox.advance("reader", all.next))
        expect(yield* outbox.prune(at(5))).toBe(2)
        expect((yield* recorded).map((e) => e.campaignId)).toEqual([2, 4, 5])
      })))
  })
