import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { SendRepository } from "../src/ports/SendRepository.js"
import { TrackingRepository } from "../src/ports/TrackingRepository.js"
import { MemoryStorage } from "../src/testing/MemoryStorage.js"
import { campaignFixtures } from "../src/testing/suite/campaignFixtures.js"
import { at } from "../src/testing/suite/fixtures.js"
import { EngagementReports } from "../src/usecases/EngagementReports.js"
import type { Storage } from "../src/usecases/Mailroom.js"

const HOUR = 3600
const { audience } = campaignFixtures(() => MemoryStorage)
/** Runs with a fresh memory store and the reports over it. */
const run = <A, E>(effect: Effect.Effect<A, E, Storage | EngagementReports>) =>
  Effect.provide(effect, Layer.provideMerge(EngagementReports.Default, MemoryStorage))

/** A campaign to two addresses, sent at `at(0)` (2026-01-01 12:00 UTC), the first mail opened `openedAfter` seconds later. */
const sentCampaign = (openedAfter: number) =>
  Effect.gen(function*() {
    const { campaign, sendIds } = yield* audience(["a@example.com", "b@example.com"])
    yield* (yield* SendRepository).record(sendIds.map((id) => ({ _tag: "Sent" as const, id, transportMessageId: null })), at(0))
    yield* (yield* TrackingRepository).recordOpen(sendIds[0]!, at(openedAfter), 0)
    return campaign
  })

const timeline = (uuid: string) => Effect.flatMap(EngagementReports, (reports) => reports.campaignTimeline(uuid))

describe("EngagementReports", () => {
  it.effect("a campaign's timeline is hourly up to 72 hours after its first mail, zero-filled to the current hour", () =>
    run(Effect.gen(function*() {
      const campaign = yield* sentCampaign(2 * HOUR + 5)
      yield* TestClock.setTime(at(72 * HOUR).getTime())
      const { bucket, points } = yield* timeline(campaign.uuid)
      expect(bucket).toBe("hour")
      expect(points.length).toBe(73)
      expect(points[0]).toEqual({ at: at(0), sent: 2, opens: 0, clicks: 0 })
      expect(points[2]).toEqual({ at: at(2 * HOUR), sent: 0, opens: 1, clicks: 0 })
      expect(points[72]!.at).toEqual(at(72 * HOUR))
    })))

  it.effect("past 72 hours it is daily, from the day of the first mail to today", () =>
    run(Effect.gen(function*() {
      const campaign = yield* sentCampaign(13 * HOUR) // 2026-01-02 01:00
      yield* TestClock.setTime(at(72 * HOUR + 1).getTime())
      const { bucket, points } = yield* timeline(campaign.uuid)
      expect(bucket).toBe("day")
      expect(points).toEqual([
        { at: new Date("2026-01-01T00:00:00.000Z"), sent: 2, opens: 0, clicks: 0 },
        { at: new Date("2026-01-02T00:00:00.000Z"), sent: 0, opens: 1, clicks: 0 },
        { at: new Date("2026-01-03T00:00:00.000Z"), sent: 0, opens: 0, clicks: 0 },
        { at: new Date("2026-01-04T00:00:00.000Z"), sent: 0, opens: 0, clicks: 0 }
      ])
    })))

  it.effect("daily statistics end today and start `days` - 1 days before", () =>
    run(Effect.gen(function*() {
      yield* sentCampaign(HOUR)
      yield* TestClock.setTime(at(24 * HOUR).getTime())
      const days = yield* Effect.flatMap(EngagementReports, (reports) => reports.daily("3"))
      expect(days.map((d) => [d.at.toISOString().slice(0, 10), d.sent, d.opens])).toEqual([
        ["2025-12-31", 0, 0],
        ["2026-01-01", 2, 1],
        ["2026-01-02", 0, 0]
      ])
    })))
})
