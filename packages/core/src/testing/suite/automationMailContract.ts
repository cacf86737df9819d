import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AutomationMailId, AutomationMailUuid } from "../../automations/AutomationIds.js"
import { AutomationMailCollection } from "../../automations/AutomationMailCollections.js"
import { type NewAutomationMail, AutomationMailRepository } from "../../automations/AutomationMailRepository.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { newUuid, type SendUuid, type SubscriberId } from "../../domain/Ids.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { anEmailList, aSubscriber, at, type MakeStorage } from "./fixtures.js"
import { zeroMailCounters } from "../../domain/zeroMailCounters.js"

/** An automation mail ready to insert. */
const aMail = (overrides: Partial<NewAutomationMail> = {}): NewAutomationMail => ({
  uuid: newUuid() as AutomationMailUuid,
  name: "Welcome",
  subject: "Hi {{ subscriber.first_name }}",
  fromEmail: "team@example.com",
  fromName: "Team",
  replyToEmail: null,
  replyToName: null,
  html: "<p>Grüße 👋</p>",
  templateId: null,
  fields: { title: "Hello" },
  emailHtml: null,
  webviewHtml: null,
  utmTags: false,
  addSubscriberTags: true,
  addSubscriberLinkTags: false,
  trackOpens: true,
  trackClicks: false,
  ...zeroMailCounters,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const mailQuery = (options: Parameters<typeof makeCollectionQuery<"name" | "created_at", "search" | "name" | "uuid", never>>[1]) =>
  makeCollectionQuery(AutomationMailCollection, options)
const page = { page: 1, perPage: 15, filters: {}, includes: [] }

/** AutomationMailRepository conformance: mails, queued sends (one per run and mail), claims, links, clicks, unsubscribes. */
export const automationMailContract = (makeStorage: MakeStorage) =>
  describe("AutomationMailRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage()) as Effect.Effect<A, E | unknown>

    /** A list with subscribed ada and bob. */
    const audience = Effect.gen(function*() {
      const list = yield* (yield* EmailListRepository).insert(anEmailList())
      const subscribers = yield* SubscriberRepository
      const ada = Option.getOrThrow(yield* subscribers.insert(aSubscriber(list.id, { email: "ada@example.com", firstName: "Ada" })))
      const bob = Option.getOrThrow(yield* subscribers.insert(aSubscriber(list.id, { email: "bob@example.com" })))
      return { list, ada, bob }
    })

    it.effect("insert, find by id, uuid and ids, update (counters untouched), delete, list with sorts and filters", () =>
      run(Effect.gen(function*() {
        const repo = yield* AutomationMailRepository
        const saved = yield* repo.insert(aMail())
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(saved).toMatchObject({ fields: { title: "Hello" }, addSubscriberTags: true, trackClicks: false, html: "<p>Grüße 👋</p>" })
        const other = yield* repo.insert(aMail({ name: "alpha", subject: "Needle", createdAt: at(5) }))
        expect((yield* repo.findByIds([other.id, saved.id, 999 as AutomationMailId])).map((m) => m.id).sort()).toEqual([saved.id, other.id].sort())
        yield* repo.addCounters(saved.id, { openCount: 2, sentToNumberOfSubscribers: 3 }, at(6))
        const {
          bounceCount: _b,
          clickCount: _cc,
          createdAt: _c,
          openCount: _o,
          sentToNumberOfSubscribers: _s,
          uniqueClickCount: _uc,
          uniqueOpenCount: _uo,
          unsubscribeCount: _un,
          uuid: _u,
          ...changes
        } = aMail({ name: "Zulu", subject: null, trackClicks: true, updatedAt: at(9) })
        const updated = Option.getOrThrow(yield* repo.update(saved.id, changes))
        expect(updated).toMatchObject({ id: saved.id, uuid: saved.uuid, name: "Zulu", subject: null, trackClicks: true, createdAt: at(0), updatedAt: at(9) })
        expect(updated).toMatchObject({ openCount: 2, sentToNumberOfSubscribers: 3 })
        const uuids = (found: { readonly items: ReadonlyArray<{ readonly uuid: string }> }) => found.items.map((m) => m.uuid)
        expect(uuids(yield* repo.list(yield* mailQuery({})))).toEqual([other.uuid, saved.uuid])
        expect(uuids(yield* repo.list(yield* mailQuery({ sort: "-created_at" })))).toEqual([other.uuid, saved.uuid])
        expect(uuids(yield* repo.list(yield* mailQuery({ sort: "created_at" })))).toEqual([saved.uuid, other.uuid])
        expect(uuids(yield* repo.list(yield* mailQuery({ filters: { search: "NEED" } })))).toEqual([other.uuid])
        expect(uuids(yield* repo.list(yield* mailQuery({ filters: { name: "ZULU" } })))).toEqual([saved.uuid])
        expect(uuids(yield* repo.list(yield* mailQuery({ filters: { uuid: other.uuid } })))).toEqual([other.uuid])
        expect(yield* repo.delete(saved.id)).toBe(true)
        expect(yield* repo.delete(saved.id)).toBe(false)
        expect(Option.isNone(yield* repo.update(saved.id, changes))).toBe(true)
      })))

    it.effect("queueSends inserts pending sends once per run and mail, however often it is called", () =>
      run(Effect.gen(function*() {
        const repo = yield* AutomationMailRepository
        const sends = yield* SendRepository
        const { ada, bob } = yield* audience
        const mail = yield* repo.insert(aMail())
        const other = yield* repo.insert(aMail({ name: "Other" }))
        const queued = (mailId: AutomationMailId, runId: number, subscriber: typeof ada) => ({
          uuid: newUuid() as SendUuid,
          mailId,
          runId,
          subscriberId: subscriber.id as SubscriberId,
          email: subscriber.email
        })
        expect(yield* repo.queueSends([queued(mail.id, 1, ada), queued(mail.id, 2, bob)], at(1))).toBe(2)
        expect(yield* repo.queueSends([queued(mail.id, 1, ada), queued(mail.id, 3, ada), queued(other.id, 1, ada)], at(2))).toBe(2)
        expect(yield* repo.queueSends([queued(mail.id, 4, bob), queued(mail.id, 4, bob)], at(3))).toBe(1)
        expect(yield* repo.queueSends([], at(4))).toBe(0)
        const listed = yield* sends.list({ ...page, sort: [], filters: { automation_mail_uuid: mail.uuid } })
        expect(listed.total).toBe(4)
        for (const item of listed.items) {
          expect(item).toMatchObject({ automationMailUuid: mail.uuid, campaignUuid: null, transactionalMailUuid: null })
          expect(item.send).toMatchObject({ automationMailId: mail.id, campaignId: null, sentAt: null, failedAt: null, attempts: 0 })
        }
      })))

    it.effect("claims pending sends once under a lease, with the subscriber and its list; recorded sends are not claimed again", () =>
      run(Effect.gen(function*() {
        const repo = yield* AutomationMailRepository
        const sends = yield* SendRepository
        const { ada, bob, list } = yield* audience
        const mail = yield* repo.insert(aMail())
        const uuids = [newUuid() as SendUuid, newUuid() as SendUuid]
        yield* repo.queueSends([
          { uuid: uuids[0]!, mailId: mail.id, runId: 10, subscriberId: ada.id as SubscriberId, email: ada.email },
          { uuid: uuids[1]!, mailId: mail.id, runId: 11, subscriberId: bob.id as SubscriberId, email: bob.email }
        ], at(1))
        const lease = { now: at(2), leaseUntil: at(60), limit: 10, owner: "one" }
        const claimed = yield* repo.claim(lease)
        expect(claimed.map((c) => c.uuid)).toEqual(uuids)
        expect(claimed[0]).toMatchObject({
          mailId: mail.id,
          email: "ada@example.com",
          attempts: 0,
          deferredSince: null,
          subscriber: { id: ada.id, email: "ada@example.com", firstName: "Ada", subscribed: true },
          list: { id: list.id, uuid: list.uuid, name: list.name, defaultFromEmail: list.defaultFromEmail }
        })
        expect(yield* repo.claim({ ...lease, owner: "two" })).toEqual([])
        yield* sends.record([{ _tag: "Sent", id: claimed[0]!.id, transportMessageId: null }], at(3))
        yield* sends.release({ ids: [claimed[1]!.id], owner: "one" })
        expect((yield* repo.claim({ ...lease, now: at(4), owner: "two" })).map((c) => c.uuid)).toEqual([uuids[1]])
      })))

    it.effect("links are ensured once per url; clicks, unsubscribes and counters feed the statistics pages", () =>
      run(Effect.gen(function*() {
        const repo = yield* AutomationMailRepository
        const sends = yield* SendRepository
        const tracking = yield* TrackingRepository
        const { ada } = yield* audience
        const mail = yield* repo.insert(aMail())
        const [a, b] = yield* repo.ensureLinks(mail.id, ["https://example.com/a", "https://example.com/b"])
        expect(yield* repo.ensureLinks(mail.id, ["https://example.com/b", "https://example.com/a"])).toEqual([b, a])
        expect(Option.getOrThrow(yield* repo.findLink(a!.id))).toEqual({ id: a!.id, automationMailId: mail.id, url: "https://example.com/a" })
        const uuid = newUuid() as SendUuid
        yield* repo.queueSends([{ uuid, mailId: mail.id, runId: 1, subscriberId: ada.id as SubscriberId, email: ada.email }], at(1))
        const send = Option.getOrThrow(yield* sends.findByUuid(uuid)).send
        yield* sends.record([{ _tag: "Sent", id: send.id, transportMessageId: null }], at(2))
        yield* tracking.recordOpen(send.id, at(3), 0)
        expect(yield* repo.recordClick(send.id, a!.id, at(4))).toEqual({ firstForSend: true, firstForLink: true })
        expect(yield* repo.recordClick(send.id, a!.id, at(5))).toEqual({ firstForSend: false, firstForLink: false })
        expect(yield* repo.recordUnsubscribe({ mailId: mail.id, sendId: send.id, subscriberId: ada.id, email: ada.email, at: at(6) })).toBe(true)
        expect(yield* repo.recordUnsubscribe({ mailId: mail.id, sendId: send.id, subscriberId: ada.id, email: ada.email, at: at(7) })).toBe(false)
        yield* tracking.recordBounce({ campaignId: null, automationMailId: mail.id, sendId: send.id, subscriberId: ada.id, email: ada.email, type: "soft_bounce", at: at(8) })
        yield* repo.addCounters(mail.id, { clickCount: 2, uniqueClickCount: 1 }, at(8))
        expect(Option.getOrThrow(yield* repo.findById(mail.id))).toMatchObject({ clickCount: 2, uniqueClickCount: 1, openCount: 0 })
        const opens = yield* repo.opens(mail.id, { ...page, sort: [{ field: "first_opened_at", direction: "desc" }] })
        expect(opens).toEqual({
          total: 1,
          items: [{ subscriberId: ada.id, subscriberUuid: ada.uuid, subscriberEmail: ada.email, openCount: 1, firstOpenedAt: at(3), lastOpenedAt: at(3) }]
        })
        const clicks = yield* repo.clicks(mail.id, { ...page, sort: [{ field: "unique_click_count", direction: "desc" }] })
        expect(clicks.items.map((row) => [row.url, row.clickCount, row.uniqueClickCount])).toEqual([
          ["https://example.com/a", 2, 1],
          ["https://example.com/b", 0, 0]
        ])
        const unsubscribes = yield* repo.unsubscribes(mail.id, { ...page, sort: [{ field: "created_at", direction: "desc" }] })
        expect(unsubscribes.items).toEqual([{ campaignId: mail.id, subscriberId: ada.id, subscriberUuid: ada.uuid, subscriberEmail: ada.email, createdAt: at(6) }])
        const bounces = yield* repo.bounces(mail.id, { ...page, sort: [{ field: "created_at", direction: "desc" }] })
        expect(bounces.items).toEqual([expect.objectContaining({ subscriberEmail: ada.email, type: "soft_bounce", bounceCount: 1 })])
        yield* repo.delete(mail.id)
        expect(Option.isNone(yield* repo.findLink(a!.id))).toBe(true)
        expect((yield* repo.unsubscribes(mail.id, { ...page, sort: [] })).total).toBe(0)
      })))
  })
