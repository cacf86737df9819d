import { Effect } from "effect"
import { EngagementHistory, type PeriodActivity } from "../../ports/EngagementHistory.js"
import type { MemoryState } from "./MemoryState.js"

type Counts = { sent: number; opens: number; clicks: number }

/** Adds one to `kind` in the period of `at` (its ISO form's first `length` characters), when `at` counts. */
const count = (periods: Map<string, Counts>, at: Date | null, length: number, kind: keyof Counts) => {
  if (at === null) return
  const period = at.toISOString().slice(0, length)
  const counts = periods.get(period) ?? { sent: 0, opens: 0, clicks: 0 }
  counts[kind]++
  periods.set(period, counts)
}

const sorted = (periods: Map<string, Counts>): ReadonlyArray<PeriodActivity> =>
  [...periods.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([period, counts]) => ({ period, ...counts }))

/** EngagementHistory over the in-memory state. */
export const makeMemoryEngagementHistory = (state: MemoryState) =>
  EngagementHistory.of({
    daily: (since) =>
      Effect.sync(() => {
        const periods = new Map<string, Counts>()
        const from = since.getTime()
        const at = (date: Date | null) => (date !== null && date.getTime() >= from ? date : null)
        for (const { send } of state.tables.sends.values()) {
          count(periods, at(send.sentAt), 10, "sent")
          count(periods, at(send.firstOpenedAt), 10, "opens")
          count(periods, at(send.firstClickedAt), 10, "clicks")
        }
        return sorted(periods)
      }),
    campaignHourly: (campaignId) =>
      Effect.sync(() => {
        const periods = new Map<string, Counts>()
        for (const { send } of state.tables.sends.values()) {
          if (send.campaignId !== campaignId) continue
          count(periods, send.sentAt, 13, "sent")
          count(periods, send.firstOpenedAt, 13, "opens")
          count(periods, send.firstClickedAt, 13, "clicks")
        }
        return sorted(periods)
      })
  })
