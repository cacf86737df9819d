import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ClaimedSend } from "../../domain/Send.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"
import { changesOf } from "./subscriberFixtures.js"

const ids = (claimed: ReadonlyArray<ClaimedSend>) => claimed.map((send) => send.id)

/** What a claimed send tells of its recipient, field by field (null when the subscriber is gone). */
const recipient = ({ subscriber: s }: ClaimedSend) =>
  s === null ? null : {
    id: s.id,
    uuid: s.uuid,
    email: s.email,
    firstName: s.firstName,
    lastName: s.lastName,
    extraAttributes: s.extraAttributes,
    subscribed: s.subscribed
  }

/** SendRepository delivery conformance: leased claims of pending sends and the recorded outcomes. */
export const sendDeliveryContract = (makeStorage: MakeStorage) =>
  describe("SendRepository delivery", () => {
    const { audience, claim, run, sendFor } = campaignFixtures(makeStorage)

    it.effect("claims the campaign's pending sends in order, up to the limit, leasing each without counting an attempt", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sendIds, sends: frozen, subscribers: [ada] } = yield* audience([
          "ada@example.com",
          "b@example.com",
          "c@example.com"
        ])
        const other = yield* audience(["other@example.com"])
        yield* Effect.flatMap(SubscriberRepository, (r) =>
          r.update(ada!, {
            ...changesOf(ada!),
            firstName: "Ada",
            lastName: "Lovelace",
            extraAttributes: { company: "Acme", score: 4.5, tags: ["a"], greeting: "Grüße 👋" }
          }))

        expect(yield* claim(c, 10, 70, 0)).toEqual([])
        const first = yield* claim(c, 10, 70, 2)
        expect(ids(first)).toEqual(sendIds.slice(0, 2))
        expect(first[0]).toMatchObject({ uuid: frozen[0]!.uuid, email: "ada@example.com", attempts: 0, deferredSince: null })
        expect(recipient(first[0]!)).toEqual({
          id: ada!.id,
          uuid: ada!.uuid,
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Lovelace",
          extraAttributes: { company: "Acme", score: 4.5, tags: ["a"], greeting: "Grüße 👋" },
          subscribed: true
        })
        expect(first[1]).toMatchObject({ uuid: frozen[1]!.uuid, email: "b@example.com", attempts: 0 })
        expect((yield* sendFor(first[0]!)).attempts).toBe(0)

        expect(ids(yield* claim(c, 20, 80))).toEqual(sendIds.slice(2))
        expect(yield* claim(c, 30, 90)).toEqual([])
        expect(ids(yield* claim(other.campaign, 30, 90))).toEqual(other.sendIds)
        expect(yield* sends.pendingCount(c.id)).toBe(3)
      })))

    it.effect("claims a leased send again only once its lease has run out", () =>
      run(Effect.gen(function*() {
        const { campaign: c, sendIds } = yield* audience(["a@example.com", "b@example.com"])
        expect(ids(yield* claim(c, 10, 70))).toEqual(sendIds)
        expect(yield* claim(c, 40, 100)).toEqual([])
        expect(yield* claim(c, 69, 129)).toEqual([])
        const again = yield* claim(c, 71, 131, 10, "worker-b")
        expect(ids(again)).toEqual(sendIds)
        expect(again.map((send) => send.attempts)).toEqual([0, 0])
        expect(yield* claim(c, 100, 160)).toEqual([])
      })))

    it.effect("records sent, failed and retried outcomes; finished sends are never claimed again", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const emails = ["1@example.com", "2@example.com", "3@example.com", "4@example.com", "5@example.com"]
        const { campaign: c, sends: [one, two, three, four, five] } = yield* audience(emails)
        yield* claim(c, 10, 70)
        yield* sends.record([
          { _tag: "Sent", id: one!.id, transportMessageId: null },
          { _tag: "Failed", id: two!.id, reason: "Mailbox unavailable", attempted: true },
          { _tag: "Retry", id: three!.id, reason: "Timeout", retryAt: at(40) },
          { _tag: "Failed", id: five!.id, reason: "The subscriber was deleted before the mail went out." }
        ], at(12))

        const sent = yield* sendFor(one!)
        expect(sent).toMatchObject({ failedAt: null, failureReason: null, attempts: 1, deliveryUncertain: false })
        expect(sent.sentAt).toEqual(at(12))
        expect(sent.updatedAt).toEqual(at(12))
        const failed = yield* sendFor(two!)
        expect(failed).toMatchObject({ sentAt: null, failureReason: "Mailbox unavailable", attempts: 1 })
        expect(failed.failedAt).toEqual(at(12))
        expect(yield* sendFor(five!)).toMatchObject({ sentAt: null, attempts: 0 })
        const retried = yield* sendFor(three!)
        expect(retried).toMatchObject({ sentAt: null, failedAt: null, failureReason: "Timeout", attempts: 1 })
        expect(yield* sends.pendingCount(c.id)).toBe(2)
        expect(yield* sends.sentCount(c.id)).toBe(1)

        expect(yield* claim(c, 39, 99)).toEqual([])
        const retry = yield* claim(c, 40, 100)
        expect(ids(retry)).toEqual([three!.id])
        expect(retry[0]).toMatchObject({ attempts: 1, deferredSince: at(12) })
        expect(ids(yield* claim(c, 71, 131))).toEqual([four!.id])

        yield* sends.record([{ _tag: "Retry", id: three!.id, reason: "Greylisted", retryAt: at(200) }], at(60))
        const again = yield* claim(c, 200, 260)
        expect(again[0]).toMatchObject({ attempts: 2, deferredSince: at(12) })

        yield* sends.record([
          { _tag: "Sent", id: three!.id, transportMessageId: null },
          { _tag: "Failed", id: four!.id, reason: "550 No such user", attempted: true }
        ], at(250))
        expect(yield* sends.pendingCount(c.id)).toBe(0)
        expect(yield* sends.sentCount(c.id)).toBe(2)
        // a sent send keeps no failure reason of its earlier temporary failures
        expect(yield* sendFor(three!)).toMatchObject({ sentAt: at(250), failureReason: null, attempts: 3 })
        expect((yield* sendFor(four!)).failureReason).toBe("550 No such user")
        expect(yield* claim(c, 1000, 1060)).toEqual([])
      })))

    it.effect("counts the sends it moved to sent; an outcome recorded again (a retry, a lease that ran out) changes nothing", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [one, two, three, four] } = yield* audience(["1@example.com", "2@example.com", "3@example.com", "4@example.com"])
        yield* claim(c, 10, 70)
        const outcomes = [
          { _tag: "Sent", id: one!.id, transportMessageId: null },
          { _tag: "Sent", id: two!.id, transportMessageId: "<two@example.com>", uncertain: true },
          { _tag: "Failed", id: three!.id, reason: "550 No such user", attempted: true },
          { _tag: "Retry", id: four!.id, reason: "451 later", retryAt: at(40) }
        ] as const
        expect(yield* sends.record(outcomes, at(12))).toBe(2)
        const recorded = yield* Effect.forEach([one, two, three, four], (send) => sendFor(send!))
        expect(yield* sends.record(outcomes, at(13))).toBe(0)
        expect(yield* sends.record([{ _tag: "Failed", id: one!.id, reason: "late", attempted: true }, { _tag: "Sent", id: three!.id, transportMessageId: null }], at(14))).toBe(0)
        expect(yield* sends.record([{ _tag: "Retry", id: two!.id, reason: "late", retryAt: at(50) }], at(15))).toBe(0)
        const [first, second, third] = recorded
        expect(yield* sendFor(one!)).toEqual(first)
        expect(yield* sendFor(two!)).toEqual(second)
        expect(yield* sendFor(three!)).toEqual(third)
        expect(yield* sends.sentCount(c.id)).toBe(2)
        // the retried send is still pending: its outcome counts once it goes out
        expect(yield* sends.record([{ _tag: "Sent", id: four!.id, transportMessageId: null }], at(41))).toBe(1)
        expect(yield* sends.sentCount(c.id)).toBe(3)
      })))

    it.effect("an unknown outcome is recorded as sent and marked uncertain; the send is never claimed again", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [maybe, sure] } = yield* audience(["maybe@example.com", "sure@example.com"])
        yield* claim(c, 10, 70)
        yield* sends.record([
          { _tag: "Sent", id: maybe!.id, transportMessageId: null, uncertain: true },
          { _tag: "Sent", id: sure!.id, transportMessageId: null }
        ], at(12))
        expect(yield* sendFor(maybe!)).toMatchObject({ sentAt: at(12), deliveryUncertain: true, attempts: 1, failureReason: null })
        expect((yield* sendFor(sure!)).deliveryUncertain).toBe(false)
        expect(yield* sends.sentCount(c.id)).toBe(2)
        expect(yield* claim(c, 500, 560)).toEqual([])
      })))

    it.effect("renews only the leases its owner still holds on unfinished sends; another owner cannot take them meanwhile", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sendIds, sends: [a, b, done] } = yield* audience(["a@example.com", "b@example.com", "c@example.com"])
        yield* claim(c, 10, 40, 10, "worker-a")
        yield* sends.record([{ _tag: "Sent", id: done!.id, transportMessageId: null }], at(11))
        expect(yield* sends.renew({ ids: sendIds, owner: "worker-b", leaseUntil: at(100) })).toBe(0)
        expect(yield* sends.renew({ ids: sendIds, owner: "worker-a", leaseUntil: at(100) })).toBe(2)
        expect(yield* claim(c, 50, 110, 10, "worker-b")).toEqual([])
        expect(yield* sends.renew({ ids: [], owner: "worker-a", leaseUntil: at(120) })).toBe(0)
        // once the renewed lease runs out, another owner takes them and the first can no longer renew them
        expect(ids(yield* claim(c, 101, 160, 10, "worker-b"))).toEqual([a!.id, b!.id])
        expect(yield* sends.renew({ ids: sendIds, owner: "worker-a", leaseUntil: at(200) })).toBe(0)
      })))

    it.effect("releases its owner's unfinished sends for any worker at once, and nobody else's", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [a, b, other, done] } = yield* audience(["a@example.com", "b@example.com", "o@example.com", "d@example.com"])
        yield* claim(c, 10, 70, 2, "worker-a")
        yield* claim(c, 10, 70, 2, "worker-b")
        yield* sends.record([{ _tag: "Sent", id: done!.id, transportMessageId: null }], at(11))
        yield* sends.release({ ids: [a!.id, b!.id, other!.id, done!.id], owner: "worker-a" })
        yield* sends.release({ ids: [], owner: "worker-a" })
        expect(ids(yield* claim(c, 12, 70, 10, "worker-c"))).toEqual([a!.id, b!.id])
        expect((yield* sendFor(done!)).sentAt).toEqual(at(11))
      })))

    it.effect("keeps the transport's message id of a mailed send", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const { campaign: c, sends: [first, second] } = yield* audience(["a@example.com", "b@example.com"])
        yield* claim(c, 10, 70)
        yield* sends.record([
          { _tag: "Sent", id: first!.id, transportMessageId: "<0123.abc@mail.example.com>" },
          { _tag: "Sent", id: second!.id, transportMessageId: null }
        ], at(12))
        expect((yield* sendFor(first!)).transportMessageId).toBe("<0123.abc@mail.example.com>")
        expect((yield* sendFor(second!)).transportMessageId).toBeNull()
      })))

    it.effect("attaches the recipient as it is at claim time: unsubscribed ones flagged, deleted ones gone with their sends", () =>
      run(Effect.gen(function*() {
        const subscribers = yield* SubscriberRepository
        const { campaign: c, subscribers: [a, b, gone] } = yield* audience(["a@example.com", "b@example.com", "c@example.com"])
        const moved = Option.getOrThrow(yield* subscribers.update(a!, { ...changesOf(a!), email: "new-a@example.com", firstName: "Al" }))
        yield* subscribers.update(b!, { ...changesOf(b!), unsubscribedAt: at(5) })
        yield* subscribers.delete(gone!.id)

        const claimed = yield* claim(c, 10, 70)
        const [first, second] = claimed
        expect(first?.email).toBe("a@example.com")
        expect(recipient(first!)).toMatchObject({ id: moved.id, email: "new-a@example.com", firstName: "Al", subscribed: true })
        expect(recipient(second!)).toMatchObject({ id: b!.id, email: "b@example.com", subscribed: false })
        expect(claimed.map((s) => s.email)).toEqual(["a@example.com", "b@example.com"])
      })))
  })
