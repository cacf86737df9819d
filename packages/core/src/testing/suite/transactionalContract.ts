import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import { newUuid, type SendUuid } from "../../domain/Ids.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { TransactionalMailCollection, TransactionalTemplateCollection } from "../../transactional/TransactionalCollections.js"
import type { TransactionalMailUuid, TransactionalTemplateId, TransactionalTemplateUuid } from "../../transactional/TransactionalIds.js"
import { type NewTransactionalMail, TransactionalMailRepository } from "../../transactional/TransactionalMailRepository.js"
import { type NewTransactionalTemplate, TransactionalTemplateRepository } from "../../transactional/TransactionalTemplateRepository.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { anEmailList, aSubscriber, at, type MakeStorage } from "./fixtures.js"

/** A transactional template ready to insert. */
const aTemplate = (overrides: Partial<NewTransactionalTemplate> = {}): NewTransactionalTemplate => ({
  uuid: newUuid() as TransactionalTemplateUuid,
  name: "Password reset",
  subject: "Reset {{ name }}",
  html: "<p>Grüße 👋 {{ name }}</p>",
  text: null,
  type: "html",
  to: null,
  cc: ["Ops <ops@example.com>"],
  bcc: null,
  storeMail: true,
  trackOpens: true,
  trackClicks: false,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A transactional mail ready to insert. */
const aMail = (overrides: Partial<NewTransactionalMail> = {}): NewTransactionalMail => ({
  uuid: newUuid() as TransactionalMailUuid,
  templateId: null,
  mailName: null,
  subject: "Your receipt",
  from: { email: "shop@example.com", name: "Shop, Inc." },
  to: [{ email: "jane@example.com", name: "Jane Doe" }, { email: "bob@example.com", name: null }],
  cc: [],
  bcc: [{ email: "audit@example.com", name: null }],
  replyTo: [],
  html: "<p>Thanks 🎉</p>",
  text: null,
  attachments: [{ name: "März.pdf", content: "JVBERi0xLjQ=", contentType: "application/pdf", contentId: null }],
  fake: false,
  stored: true,
  mailer: null,
  trackOpens: true,
  trackClicks: true,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const templateQuery = (options: Parameters<typeof makeCollectionQuery<"name" | "created_at" | "subject", "search" | "name" | "uuid", never>>[1]) =>
  makeCollectionQuery(TransactionalTemplateCollection, options)
const mailQuery = (options: Parameters<typeof makeCollectionQuery<"created_at" | "subject", "search" | "transport_message_id" | "mail_name", never>>[1]) =>
  makeCollectionQuery(TransactionalMailCollection, options)

/** TransactionalTemplateRepository and TransactionalMailRepository conformance (with the sends they share). */
export const transactionalContract = (makeStorage: MakeStorage) =>
  describe("Transactional repositories", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage()) as Effect.Effect<A, E | unknown>

    it.effect("templates: insert, find by id, uuid and name ignoring case, update, delete, list with filters and sorts", () =>
      run(Effect.gen(function*() {
        const repo = yield* TransactionalTemplateRepository
        const saved = yield* repo.insert(aTemplate())
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByName("PASSWORD reset"))).toEqual(saved)
        expect(saved).toMatchObject({ cc: ["Ops <ops@example.com>"], to: null, trackOpens: true, trackClicks: false, html: "<p>Grüße 👋 {{ name }}</p>" })
        const other = yield* repo.insert(aTemplate({ name: "Welcome", subject: "Alpha", createdAt: at(5) }))
        const updated = Option.getOrThrow(yield* repo.update(saved.id, { ...aTemplate({ name: "Reset", subject: "Zulu", type: "markdown", storeMail: false, to: ["a@example.com"] }), updatedAt: at(9) }))
        expect(updated).toMatchObject({ id: saved.id, uuid: saved.uuid, createdAt: at(0), updatedAt: at(9), name: "Reset", type: "markdown", storeMail: false, to: ["a@example.com"] })
        const uuids = (page: { readonly items: ReadonlyArray<{ readonly template: { readonly uuid: string } }> }) => page.items.map((l) => l.template.uuid)
        expect(uuids(yield* repo.list(yield* templateQuery({})))).toEqual([other.uuid, saved.uuid])
        expect(uuids(yield* repo.list(yield* templateQuery({ sort: "subject" })))).toEqual([other.uuid, saved.uuid])
        expect(uuids(yield* repo.list(yield* templateQuery({ filters: { search: "zul" } })))).toEqual([saved.uuid])
        expect(uuids(yield* repo.list(yield* templateQuery({ filters: { name: "welcome" } })))).toEqual([other.uuid])
        expect(uuids(yield* repo.list(yield* templateQuery({ filters: { uuid: saved.uuid } })))).toEqual([saved.uuid])
        expect((yield* repo.list(yield* templateQuery({}))).items[0]!.statistics).toEqual({
          sentCount: 0, openCount: 0, uniqueOpenCount: 0, clickCount: 0, uniqueClickCount: 0, bounceCount: 0
        })
        expect(yield* repo.delete(saved.id)).toBe(true)
        expect(yield* repo.delete(saved.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(999 as TransactionalTemplateId))).toBe(true)
      })))

    it.effect("mails keep every field; the log shows stored mails with their latest send, status, opens and clicks", () =>
      run(Effect.gen(function*() {
        const mails = yield* TransactionalMailRepository
        const sends = yield* SendRepository
        const saved = yield* mails.insert(aMail())
        expect(Option.getOrThrow(yield* mails.findById(saved.id))).toEqual(saved)
        const pending = Option.getOrThrow(yield* mails.findByUuid(saved.uuid))
        expect(pending).toMatchObject({ status: "pending", sendUuid: null, opens: 0, clicks: 0, failureReason: null })
        const first = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: saved.id, email: "jane@example.com", at: at(1) })
        const listed = Option.getOrThrow(yield* sends.findByUuid(first.uuid))
        expect(listed).toMatchObject({ transactionalMailUuid: saved.uuid, campaignUuid: null, subscriberUuid: null })
        expect(listed.send.transactionalMailId).toBe(saved.id)
        yield* sends.record([{ _tag: "Failed", id: first.id, reason: "550 no such user", attempted: true }], at(2))
        expect(Option.getOrThrow(yield* mails.findByUuid(saved.uuid))).toMatchObject({ status: "failed", failureReason: "550 no such user", sendUuid: first.uuid })
        const second = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: saved.id, email: "jane@example.com", at: at(3) })
        yield* sends.record([{ _tag: "Sent", id: second.id, transportMessageId: `<${second.uuid}@example.com>` }], at(4))
        const tracking = yield* TrackingRepository
        yield* tracking.recordOpen(second.id, at(5), 0)
        expect(yield* mails.countClick(second.id, at(6))).toEqual({ first: true })
        expect(yield* mails.countClick(second.id, at(7))).toEqual({ first: false })
        expect(Option.getOrThrow(yield* mails.findByUuid(saved.uuid))).toMatchObject({
          status: "sent", sendUuid: second.uuid, transportMessageId: `<${second.uuid}@example.com>`, opens: 1, clicks: 2
        })
        const filtered = yield* sends.list({ page: 1, perPage: 10, sort: [], filters: { transactional_mail_log_item_uuid: saved.uuid }, includes: [] })
        expect(filtered.items.map((l) => l.send.uuid).sort()).toEqual([first.uuid, second.uuid].sort())
        const hidden = yield* mails.insert(aMail({ stored: false, createdAt: at(8) }))
        expect(Option.isNone(yield* mails.findByUuid(hidden.uuid))).toBe(true)
        const named = yield* mails.insert(aMail({ mailName: "Receipt", subject: "Another", to: [{ email: "kim@shop.example", name: "Kim" }], createdAt: at(9) }))
        const uuids = (page: { readonly items: ReadonlyArray<{ readonly mail: { readonly uuid: string } }> }) => page.items.map((l) => l.mail.uuid)
        expect(uuids(yield* mails.list(yield* mailQuery({})))).toEqual([named.uuid, saved.uuid])
        expect(uuids(yield* mails.list(yield* mailQuery({ sort: "subject" })))).toEqual([named.uuid, saved.uuid])
        expect(uuids(yield* mails.list(yield* mailQuery({ filters: { search: "KIM@shop" } })))).toEqual([named.uuid])
        expect(uuids(yield* mails.list(yield* mailQuery({ filters: { mail_name: "receipt" } })))).toEqual([named.uuid])
        expect(uuids(yield* mails.list(yield* mailQuery({ filters: { transport_message_id: `${second.uuid}@example.com` } })))).toEqual([saved.uuid])
      })))

    it.effect("a send is attributed to the oldest subscriber with its address; mails are found by several ids at once", () =>
      run(Effect.gen(function*() {
        const mails = yield* TransactionalMailRepository
        const sends = yield* SendRepository
        const lists = yield* EmailListRepository
        const subscribers = yield* SubscriberRepository
        const [one, two] = [yield* lists.insert(anEmailList()), yield* lists.insert(anEmailList({ name: "Other" }))]
        const first = Option.getOrThrow(yield* subscribers.insert(aSubscriber(one.id, { email: "jane@example.com" })))
        yield* subscribers.insert(aSubscriber(two.id, { email: "jane@example.com" }))
        const mail = yield* mails.insert(aMail())
        const other = yield* mails.insert(aMail({ subject: "Other" }))
        const known = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(1) })
        const stranger = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "nobody@example.com", at: at(1) })
        expect(Option.getOrThrow(yield* sends.findByUuid(known.uuid))).toMatchObject({ subscriberUuid: first.uuid })
        expect(Option.getOrThrow(yield* sends.findByUuid(stranger.uuid)).subscriberUuid).toBeNull()
        const found = yield* mails.findByIds([other.id, mail.id, 999 as typeof mail.id])
        expect([...found].sort((a, b) => a.id - b.id)).toEqual([mail, other])
      })))

    it.effect("outcomes recorded together keep each send's own message id, uncertain or not", () =>
      run(Effect.gen(function*() {
        const mails = yield* TransactionalMailRepository
        const sends = yield* SendRepository
        const mail = yield* mails.insert(aMail())
        const added = yield* Effect.forEach([1, 2, 3], () => mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) }))
        yield* sends.record(added.map((send, i) => ({ _tag: "Sent" as const, id: send.id, transportMessageId: `<m${i}@example.com>`, uncertain: i === 2 })), at(1))
        const recorded = yield* Effect.forEach(added, (send) => Effect.map(sends.findByUuid(send.uuid), (found) => Option.getOrThrow(found).send))
        expect(recorded.map((send) => [send.transportMessageId, send.deliveryUncertain, send.attempts, send.sentAt])).toEqual([
          ["<m0@example.com>", false, 1, at(1)],
          ["<m1@example.com>", false, 1, at(1)],
          ["<m2@example.com>", true, 1, at(1)]
        ])
      })))

    it.effect("claims pending transactional sends oldest first under a lease, retries after their time, and claims again what a lost lease held", () =>
      run(Effect.gen(function*() {
        const mails = yield* TransactionalMailRepository
        const sends = yield* SendRepository
        const mail = yield* mails.insert(aMail())
        const a = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) })
        const b = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) })
        const lease = { now: at(10), leaseUntil: at(40), owner: "w1" }
        const claimed = yield* mails.claim({ ...lease, limit: 1 })
        expect(claimed).toEqual([{ id: a.id, uuid: a.uuid, mailId: mail.id, attempts: 0, deferredSince: null }])
        expect((yield* mails.claim({ ...lease, limit: 5, owner: "w2" })).map((c) => c.id)).toEqual([b.id])
        expect(yield* mails.claim({ ...lease, limit: 5, owner: "w3" })).toEqual([])
        yield* sends.record([{ _tag: "Retry", id: a.id, reason: "451 later", retryAt: at(100) }], at(11))
        expect(yield* mails.claim({ ...lease, now: at(50), leaseUntil: at(80), limit: 5 })).toEqual([
          { id: b.id, uuid: b.uuid, mailId: mail.id, attempts: 0, deferredSince: null }
        ])
        const again = yield* mails.claim({ now: at(101), leaseUntil: at(130), limit: 5, owner: "w1" })
        expect(again.map((c) => [c.id, c.attempts, c.deferredSince])).toEqual([[a.id, 1, at(11)], [b.id, 0, null]])
      })))

    it.effect("statistics add up the sends of a template's mails; delivered mails that are not stored are forgotten", () =>
      run(Effect.gen(function*() {
        const templates = yield* TransactionalTemplateRepository
        const mails = yield* TransactionalMailRepository
        const sends = yield* SendRepository
        const tracking = yield* TrackingRepository
        const template = yield* templates.insert(aTemplate())
        const mail = yield* mails.insert(aMail({ templateId: template.id, mailName: template.name }))
        const ok = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) })
        const bounced = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) })
        yield* sends.record([{ _tag: "Sent", id: ok.id, transportMessageId: null }, { _tag: "Failed", id: bounced.id, reason: "550", attempted: true }], at(1))
        yield* tracking.recordOpen(ok.id, at(2), 0)
        yield* tracking.recordOpen(ok.id, at(3), 0)
        yield* mails.countClick(ok.id, at(4))
        yield* tracking.recordBounce({ campaignId: null, sendId: bounced.id, subscriberId: null, email: "jane@example.com", type: "bounce", at: at(5) })
        expect(yield* templates.statistics(template.id)).toEqual({
          sentCount: 1, openCount: 2, uniqueOpenCount: 1, clickCount: 1, uniqueClickCount: 1, bounceCount: 1
        })
        const secret = yield* mails.insert(aMail({ stored: false }))
        const secretSend = yield* mails.addSend({ uuid: newUuid() as SendUuid, mailId: secret.id, email: "jane@example.com", at: at(0) })
        yield* mails.forgetDelivered([secret.id, mail.id])
        expect(Option.isSome(yield* mails.findById(secret.id))).toBe(true)
        yield* sends.record([{ _tag: "Sent", id: secretSend.id, transportMessageId: null }], at(6))
        yield* mails.forgetDelivered([secret.id, mail.id])
        expect(Option.isNone(yield* mails.findById(secret.id))).toBe(true)
        expect(Option.isNone(yield* sends.findByUuid(secretSend.uuid))).toBe(true)
        expect(Option.isSome(yield* mails.findById(mail.id))).toBe(true)
      })))
  })
