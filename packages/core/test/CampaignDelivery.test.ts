/**
 * The delivery engine in memory with a scripted transport and the test clock: retries budgeted by time, unknown
 * outcomes never re-sent, a transport that looks down stops the slice instead of failing the whole audience.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  CampaignDelivery,
  CampaignRepository,
  DeliveryOptions,
  EmailListRepository,
  type EmailListId,
  MailError,
  Mailer,
  type MailFailure,
  makeCollectionQuery,
  Mailroom,
  SendCollection,
  SendRepository,
  SubscriberRepository,
  TrackingRepository
} from "@mailroom/core"
import { MemoryStorage } from "@mailroom/core/testing"
import { Duration, Effect, Layer, Logger, Option, TestClock } from "effect"
import { aCampaign } from "../src/testing/suite/campaignFixtures.js"
import { aSubscriber, anEmailList } from "../src/testing/suite/fixtures.js"
import { noCsv } from "./noCsv.js"

/** A transport that fails the addresses it is told to, the way it is told to, and counts every hand-over. */
const scripted = (failures: (email: string) => MailFailure | null) => {
  const handed: Array<string> = []
  const layer = Layer.succeed(Mailer, Mailer.of({
    send: (message) =>
      Effect.suspend(() => {
        handed.push(message.to.email)
        const failure = failures(message.to.email)
        if (failure === null) return Effect.void
        return Effect.fail(new MailError({
          message: failure === "temporary" ? "SMTP message refused: 451 4.3.0 later" : `${failure} failure`,
          failure,
          code: failure === "temporary" ? 451 : null
        }))
      })
  }))
  return { handed, layer }
}

const options = Layer.effect(DeliveryOptions, Effect.map(DeliveryOptions, (d) => ({ ...d, concurrency: 4, batchSize: 10, recordLinger: Duration.zero })))

/** A sending campaign to `emails` (all subscribed); its id. */
const campaignTo = (emails: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const list = yield* Effect.flatMap(EmailListRepository, (r) => r.insert(anEmailList()))
    for (const email of emails) yield* Effect.flatMap(SubscriberRepository, (r) => r.insert(aSubscriber(list.id as EmailListId, { email })))
    const campaign = yield* Effect.flatMap(CampaignRepository, (r) => r.insert(aCampaign({ emailListId: list.id, status: "sending" })))
    return campaign
  })

const sendTo = (campaignId: number, email: string) =>
  Effect.gen(function*() {
    const campaign = Option.getOrThrow(yield* Effect.flatMap(CampaignRepository, (r) => r.findById(campaignId as never)))
    const query = yield* makeCollectionQuery(SendCollection, { filters: { campaign_uuid: campaign.uuid }, perPage: 100 })
    const page = yield* Effect.flatMap(SendRepository, (r) => r.list(query))
    return page.items.map((l) => l.send).find((s) => s.email === email)!
  })

const statusOf = (campaignId: number) =>
  Effect.map(Effect.flatMap(CampaignRepository, (r) => r.findById(campaignId as never)), (c) => Option.getOrThrow(c).status)

const run = <A, E>(mailer: Layer.Layer<Mailer>, effect: Effect.Effect<A, E, Mailroom | Layer.Layer.Success<typeof MemoryStorage>>) =>
  Effect.provide(effect, Mailroom.pipe(Layer.provideMerge(MemoryStorage), Layer.provide(mailer), Layer.provide(noCsv), Layer.provide(options)))

describe("CampaignDelivery", () => {
  it.effect("retries a temporary failure with growing pauses for 48 hours, then fails it as a soft bounce", () => {
    const transport = scripted((email) => (email === "later@example.com" ? "temporary" : null))
    return run(transport.layer, Effect.gen(function*() {
      const delivery = yield* CampaignDelivery
      const campaign = yield* campaignTo(["later@example.com", "fine@example.com"])
      yield* delivery.drain()
      expect(yield* sendTo(campaign.id, "fine@example.com")).toMatchObject({ attempts: 1, failureReason: null })
      const waiting = yield* sendTo(campaign.id, "later@example.com")
      expect(waiting).toMatchObject({ sentAt: null, failedAt: null, attempts: 1 })
      expect(waiting.failureReason).toContain("451")
      expect(yield* statusOf(campaign.id)).toBe("sending")

      // the pauses double from 30 s to an hour: each retry comes when it is due, not before
      const pauses: Array<number> = []
      let last = transport.handed.length
      // minute by minute while the pauses are short, then every 5 minutes (the pauses grow to an hour)
      for (let minutes = 0; minutes < 48 * 60 + 60; minutes += minutes < 16 ? 1 : 5) {
        if (minutes < 16) {
          yield* TestClock.adjust(Duration.seconds(30))
          yield* delivery.drain()
          yield* TestClock.adjust(Duration.seconds(30))
        } else {
          yield* TestClock.adjust(Duration.minutes(5))
        }
        yield* delivery.drain()
        if (transport.handed.length > last) {
          pauses.push(minutes)
          last = transport.handed.length
        }
        if ((yield* statusOf(campaign.id)) === "sent") break
      }
      const gaveUp = yield* sendTo(campaign.id, "later@example.com")
      expect(gaveUp.failedAt).not.toBeNull()
      expect(gaveUp.failureReason).toMatch(/^Gave up after 48 h of temporary failures; last: .*451/)
      expect(gaveUp.failedAt!.getTime() - waiting.updatedAt.getTime()).toBeGreaterThanOrEqual(48 * 3_600_000)
      expect(gaveUp.failedAt!.getTime() - waiting.updatedAt.getTime()).toBeLessThan(50 * 3_600_000)
      expect(pauses.slice(0, 4)).toEqual([0, 1, 3, 7])
      expect(gaveUp.attempts).toBe(transport.handed.filter((e) => e === "later@example.com").length)
      expect(gaveUp.attempts).toBeLessThan(60)
      expect(yield* statusOf(campaign.id)).toBe("sent")
      expect(yield* Effect.flatMap(TrackingRepository, (r) => r.softBounceStreak("later@example.com"))).toBe(1)
    }))
  }, 60_000)

  it.effect("an unknown outcome counts as sent, is marked uncertain and is never handed over again", () => {
    const transport = scripted((email) => (email === "maybe@example.com" ? "unknown" : null))
    return run(transport.layer, Effect.gen(function*() {
      const delivery = yield* CampaignDelivery
      const campaign = yield* campaignTo(["maybe@example.com", "sure@example.com"])
      yield* delivery.drain()
      yield* TestClock.adjust(Duration.hours(100))
      yield* delivery.drain()
      expect(transport.handed.sort()).toEqual(["maybe@example.com", "sure@example.com"])
      expect(yield* sendTo(campaign.id, "maybe@example.com")).toMatchObject({ deliveryUncertain: true, failureReason: null, attempts: 1 })
      expect((yield* sendTo(campaign.id, "maybe@example.com")).sentAt).not.toBeNull()
      expect(yield* statusOf(campaign.id)).toBe("sent")
    }))
  })

  it.effect("a transport that fails every mail stops the slice after a run of failures instead of failing the whole audience", () => {
    const transport = scripted(() => "temporary")
    return run(transport.layer, Effect.gen(function*() {
      const delivery = yield* CampaignDelivery
      const emails = Array.from({ length: 200 }, (_, i) => `u${i}@example.com`)
      const campaign = yield* campaignTo(emails)
      yield* delivery.step() // freezes the audience
      yield* delivery.step()
      // a run as long as the concurrency (4), plus what was already in flight, then nothing more
      expect(transport.handed.length).toBeGreaterThanOrEqual(4)
      expect(transport.handed.length).toBeLessThanOrEqual(8)
      expect(yield* statusOf(campaign.id)).toBe("sending")
    }))
  })

  it.effect("a campaign that sends nothing for a minute says why in the log, once a minute", () => {
    const transport = scripted(() => "temporary")
    const lines: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void lines.push(String(message))))
    return run(transport.layer, Effect.gen(function*() {
      const delivery = yield* CampaignDelivery
      const campaign = yield* campaignTo(["a@example.com", "b@example.com"])
      for (let second = 0; second < 130; second += 5) {
        yield* delivery.step()
        yield* TestClock.adjust(Duration.seconds(5))
      }
      const stalls = lines.filter((line) => line.startsWith(`Campaign ${campaign.uuid} has sent no mail for`))
      expect(stalls.length).toBe(2)
      expect(stalls[0]).toMatch(/for 6\d s with 2 sends pending: the last failure was: SMTP message refused: 451/)
      expect(lines.some((line) => /^SMTP: \d+ temporary failures/.test(line))).toBe(true)
    }).pipe(Effect.provide(capture)))
  })
})
