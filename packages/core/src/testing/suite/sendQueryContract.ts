import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SendCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { SendId } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { Send } from "../../domain/Send.js"
import { type DeliveryResult, type ListedSend, SendRepository } from "../../ports/SendRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"

type SendFilter = "subscriber_uuid" | "campaign_uuid" | "automation_mail_uuid" | "transactional_mail_log_item_uuid" | "status"

/** SendRepository queries: the sends log (sorts, filters, paging) and the latest mail sent to an address. */
export const sendQueryContract = (makeStorage: MakeStorage) =>
  describe("SendRepository queries", () => {
    const { aList, campaign, claim, freeze, run, sendFor, sendsOf, subscribe } = campaignFixtures(makeStorage)
    const list = (options: Parameters<typeof makeCollectionQuery<"sent_at", SendFilter, never>>[1] = {}) =>
      Effect.flatMap(makeCollectionQuery(SendCollection, options), (q) => Effect.flatMap(SendRepository, (r) => r.list(q)))
    const record = (results: ReadonlyArray<DeliveryResult>, seconds: number) =>
      Effect.flatMap(SendRepository, (r) => r.record(results, at(seconds)))
    const sent = (send: Send): DeliveryResult => ({ _tag: "Sent", id: send.id, transportMessageId: null })

    it.effect("lists sends most recently sent first (unsent last), filtered by subscriber or campaign, with public ids", () =>
      run(Effect.gen(function*() {
        const one = yield* aList
        const a = yield* subscribe(one, { email: "a@example.com" })
        const b = yield* subscribe(one, { email: "b@example.com" })
        const first = yield* campaign({ emailListId: one, status: "sending" })
        const second = yield* campaign({ emailListId: one, status: "sending" })
        yield* freeze(first)
        yield* freeze(second)
        const [firstA, firstB] = yield* sendsOf(first)
        const [secondA, secondB] = yield* sendsOf(second)
        yield* claim(first, 5, 65)
        yield* claim(second, 5, 65)
        yield* record([sent(firstA!)], 10)
        yield* record([sent(secondB!)], 30)
        yield* record([sent(firstB!)], 20)
        const label = new Map<SendId, string>([
          [firstA!.id, "1a"],
          [firstB!.id, "1b"],
          [secondA!.id, "2a"],
          [secondB!.id, "2b"]
        ])
        const labels = (page: { readonly items: ReadonlyArray<ListedSend> }) => page.items.map((l) => label.get(l.send.id))

        const all = yield* list()
        expect(all.total).toBe(4)
        expect(labels(all)).toEqual(["2b", "1b", "1a", "2a"])
        expect(all.items[0]).toEqual({ send: yield* sendFor(secondB!), campaignUuid: second.uuid, transactionalMailUuid: null, automationMailUuid: null, subscriberUuid: b.uuid })
        expect(labels(yield* list({ sort: "sent_at" }))).toEqual(["2a", "1a", "1b", "2b"])
        expect(labels(yield* list({ filters: { subscriber_uuid: a.uuid.toUpperCase() } }))).toEqual(["1a", "2a"])
        expect(labels(yield* list({ filters: { campaign_uuid: second.uuid } }))).toEqual(["2b", "2a"])
        expect(labels(yield* list({ filters: { campaign_uuid: second.uuid, subscriber_uuid: a.uuid } }))).toEqual(["2a"])
        expect(yield* list({ filters: { campaign_uuid: newUuid() } })).toEqual({ items: [], total: 0 })
        expect(yield* list({ filters: { automation_mail_uuid: newUuid() } })).toEqual({ items: [], total: 0 })
        expect(yield* list({ filters: { transactional_mail_log_item_uuid: newUuid() } })).toEqual({ items: [], total: 0 })

        const page = yield* list({ page: 2, perPage: 3 })
        expect(page.total).toBe(4)
        expect(labels(page)).toEqual(["2a"])
      })))

    it.effect("filters by status (pending, sent, failed), combined with the other filters; the statuses add up", () =>
      run(Effect.gen(function*() {
        const one = yield* aList
        const a = yield* subscribe(one, { email: "a@example.com" })
        for (const email of ["b@example.com", "c@example.com", "d@example.com"]) yield* subscribe(one, { email })
        const first = yield* campaign({ emailListId: one, status: "sending" })
        const second = yield* campaign({ emailListId: one, status: "sending" })
        yield* freeze(first)
        yield* freeze(second)
        const [firstA, firstB, firstC, firstD] = yield* sendsOf(first)
        const [secondA] = yield* sendsOf(second)
        yield* claim(first, 5, 65)
        yield* claim(second, 5, 65)
        yield* record([sent(firstA!), sent(firstB!), { _tag: "Failed", id: firstC!.id, reason: "550 no such user", attempted: true }], 10)
        yield* record([{ _tag: "Retry", id: firstD!.id, reason: "451 later", retryAt: at(100) }, sent(secondA!)], 20)
        const ids = (page: { readonly items: ReadonlyArray<ListedSend> }) => page.items.map((l) => l.send.id)

        expect(ids(yield* list({ filters: { campaign_uuid: first.uuid, status: "sent" } })).sort()).toEqual([firstA!.id, firstB!.id].sort())
        expect(ids(yield* list({ filters: { campaign_uuid: first.uuid, status: "failed" } }))).toEqual([firstC!.id])
        expect(ids(yield* list({ filters: { campaign_uuid: first.uuid, status: "pending" } }))).toEqual([firstD!.id])
        expect(ids(yield* list({ filters: { subscriber_uuid: a.uuid, status: "sent" } })).sort()).toEqual([firstA!.id, secondA!.id].sort())
        expect(ids(yield* list({ filters: { campaign_uuid: second.uuid, status: "pending" } })).length).toBe(3)
        expect((yield* list({ filters: { status: " SENT " } })).total).toBe(3)
        const totals = yield* Effect.forEach(["pending", "sent", "failed"], (status) => Effect.map(list({ filters: { status } }), (p) => p.total))
        expect(totals).toEqual([4, 3, 1])
        expect((yield* list()).total).toBe(8)
      })))

    it.effect("finds the latest mailed send to an address, ignoring pending and failed ones", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const [one, two] = [yield* aList, yield* aList]
        yield* subscribe(one, { email: "a@example.com" })
        yield* subscribe(one, { email: "b@example.com" })
        yield* subscribe(two, { email: "a@example.com" })
        const sendsTo = (emailListId: typeof one) =>
          Effect.gen(function*() {
            const c = yield* campaign({ emailListId, status: "sending" })
            yield* freeze(c)
            yield* claim(c, 5, 65)
            return yield* sendsOf(c)
          })
        const [early, pendingB] = yield* sendsTo(one)
        const [middle] = yield* sendsTo(two)
        const [tied] = yield* sendsTo(two)
        const [failed] = yield* sendsTo(one)

        expect(Option.isNone(yield* sends.latestSentTo("a@example.com"))).toBe(true)
        yield* record([sent(early!)], 10)
        expect(Option.getOrThrow(yield* sends.latestSentTo("a@example.com"))).toEqual(yield* sendFor(early!))
        yield* record([sent(tied!), sent(middle!)], 30)
        yield* record([{ _tag: "Failed", id: failed!.id, reason: "Rejected" }], 40)
        expect(Option.getOrThrow(yield* sends.latestSentTo("a@example.com"))).toEqual(yield* sendFor(tied!))
        expect(pendingB!.email).toBe("b@example.com")
        expect(Option.isNone(yield* sends.latestSentTo("b@example.com"))).toBe(true)
        expect(Option.isNone(yield* sends.latestSentTo("nobody@example.com"))).toBe(true)
      })))

    it.effect("finds the latest send by its transport message id, with or without angle brackets", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const one = yield* aList
        yield* subscribe(one, { email: "a@example.com" })
        yield* subscribe(one, { email: "b@example.com" })
        const c = yield* campaign({ emailListId: one, status: "sending" })
        yield* freeze(c)
        yield* claim(c, 5, 65)
        const [a, b] = yield* sendsOf(c)
        yield* record([
          { _tag: "Sent", id: a!.id, transportMessageId: "<0123.abc@mail.example.com>" },
          { _tag: "Sent", id: b!.id, transportMessageId: "4567.def@mail.example.com" }
        ], 10)

        expect(Option.getOrThrow(yield* sends.findByTransportMessageId("<0123.abc@mail.example.com>"))).toEqual(yield* sendFor(a!))
        expect(Option.getOrThrow(yield* sends.findByTransportMessageId("0123.abc@mail.example.com"))).toEqual(yield* sendFor(a!))
        expect(Option.getOrThrow(yield* sends.findByTransportMessageId(" <4567.def@mail.example.com> "))).toEqual(yield* sendFor(b!))
        expect(Option.isNone(yield* sends.findByTransportMessageId("<other@mail.example.com>"))).toBe(true)
      })))
  })
