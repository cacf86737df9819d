import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { newUuid, type SendUuid } from "../../domain/Ids.js"
import { CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import { EngagementHistory } from "../../ports/EngagementHistory.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { TransactionalMailRepository } from "../../transactional/TransactionalMailRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, aTransactionalMail, type MakeStorage } from "./fixtures.js"

const HOUR = 3600
const DAY = 24 * HOUR

/** EngagementHistory conformance: sends, first opens and first clicks per day over every mail, and per hour of a campaign. */
export const engagementHistoryContract = (makeStorage: MakeStorage) =>
  describe("EngagementHistory", () => {
    const { audience, run } = campaignFixtures(makeStorage)

    it.effect("is empty in an empty store", () =>
      run(Effect.gen(function*() {
        const history = yield* EngagementHistory
        expect(yield* history.daily(at(-DAY))).toEqual([])
      })))

    it.effect("counts each mail once per day: sent by sent_at, opens and clicks at the first of each, from `since` on", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const tracking = yield* TrackingRepository
        const { campaign, sendIds } = yield* audience(["a@example.com", "b@example.com", "c@example.com", "d@example.com"])
        const [a, b, c, d] = sendIds as [typeof sendIds[number], typeof sendIds[number], typeof sendIds[number], typeof sendIds[number]]
        yield* sends.record([{ _tag: "Sent", id: a, transportMessageId: null }], at(-2 * DAY))
        yield* sends.record([{ _tag: "Sent", id: b, transportMessageId: null }, { _tag: "Sent", id: c, transportMessageId: null }], at(0))
        yield* sends.record([{ _tag: "Failed", id: d, reason: "550" }], at(0))
        const [link] = yield* (yield* CampaignLinkRepository).ensure(campaign.id, ["https://example.com/"])
        yield* tracking.recordOpen(b, at(HOUR), 0)
        yield* tracking.recordOpen(b, at(DAY + HOUR), 0) // a second open of b counts no more
        yield* tracking.recordOpen(c, at(DAY), 0)
        yield* tracking.recordClick(c, link!.id, at(DAY + 60))
        yield* tracking.recordClick(c, link!.id, at(DAY + 120))
        yield* tracking.recordOpen(a, at(-2 * DAY + 60), 0) // before `since`

        const transactional = yield* TransactionalMailRepository
        const mail = yield* transactional.insert(aTransactionalMail())
        const receipt = yield* transactional.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: "jane@example.com", at: at(0) })
        yield* sends.record([{ _tag: "Sent", id: receipt.id, transportMessageId: null }], at(DAY))

        const history = yield* EngagementHistory
        expect(yield* history.daily(at(-12 * HOUR))).toEqual([
          { period: "2026-01-01", sent: 2, opens: 1, clicks: 0 },
          { period: "2026-01-02", sent: 1, opens: 1, clicks: 1 }
        ])
        expect((yield* history.daily(at(-3 * DAY))).map((row) => row.period)).toEqual(["2025-12-30", "2026-01-01", "2026-01-02"])
        expect(yield* history.daily(at(2 * DAY))).toEqual([])
      })))

    it.effect("counts one campaign's mails per hour, and no other mail", () =>
      run(Effect.gen(function*() {
        const sends = yield* SendRepository
        const tracking = yield* TrackingRepository
        const { campaign, sendIds } = yield* audience(["a@example.com", "b@example.com"])
        const other = yield* audience(["c@example.com"])
        yield* sends.record(sendIds.map((id) => ({ _tag: "Sent" as const, id, transportMessageId: null })), at(0))
        yield* sends.record([{ _tag: "Sent", id: other.sendIds[0]!, transportMessageId: null }], at(0))
        const [link] = yield* (yield* CampaignLinkRepository).ensure(campaign.id, ["https://example.com/"])
        yield* tracking.recordOpen(sendIds[0]!, at(60), 0)
        yield* tracking.recordOpen(sendIds[1]!, at(2 * HOUR), 0)
        yield* tracking.recordClick(sendIds[1]!, link!.id, at(2 * HOUR + 60))
        yield* tracking.recordOpen(other.sendIds[0]!, at(60), 0)

        const history = yield* EngagementHistory
        expect(yield* history.campaignHourly(campaign.id)).toEqual([
          { period: "2026-01-01T12", sent: 2, opens: 1, clicks: 0 },
          { period: "2026-01-01T14", sent: 0, opens: 1, clicks: 1 }
        ])
        expect(yield* history.campaignHourly(other.campaign.id)).toEqual([{ period: "2026-01-01T12", sent: 1, opens: 1, clicks: 0 }])
      })))
  })
