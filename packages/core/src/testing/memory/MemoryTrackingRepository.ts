import { Effect } from "effect"
import type { ClickRow } from "../../domain/Feedback.js"
import type { CampaignId } from "../../domain/Ids.js"
import { Send } from "../../domain/Send.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { memoryMailStatistics } from "./memoryMailStatistics.js"
import type { MemoryState } from "./MemoryState.js"

/** TrackingRepository over the in-memory state. */
export const makeMemoryTrackingRepository = (state: MemoryState) => {
  const { tables } = state
  const changeSend = (id: number, change: (send: Send) => Partial<Send>) => {
    const row = tables.sends.get(id)
    if (row === undefined) return undefined
    const send = new Send({ ...row.send, ...change(row.send) })
    tables.sends.set(id, { ...row, send })
    return send
  }

  return TrackingRepository.of({
    recordOpen: (sendId, at, debounceMs) =>
      Effect.sync(() => {
        const row = tables.sends.get(sendId)
        if (row === undefined || (row.send.lastOpenedAt !== null && row.send.lastOpenedAt.getTime() >= at.getTime() - debounceMs)) {
          return { counted: false, first: false }
        }
        const send = changeSend(sendId, (s) => ({ openCount: s.openCount + 1, firstOpenedAt: s.firstOpenedAt ?? at, lastOpenedAt: at }))!
        return { counted: true, first: send.openCount === 1 }
      }),
    recordClick: (sendId, linkId, at) =>
      Effect.sync(() => {
        const send = changeSend(sendId, (s) => ({ clickCount: s.clickCount + 1, firstClickedAt: s.firstClickedAt ?? at, lastClickedAt: at }))
        const existing = [...tables.campaignClicks.entries()].find(([, c]) => c.sendId === sendId && c.linkId === linkId)
        if (existing === undefined) tables.campaignClicks.set(state.nextId("campaignClicks"), { sendId, linkId, clickCount: 1 })
        else tables.campaignClicks.set(existing[0], { ...existing[1], clickCount: existing[1].clickCount + 1 })
        const link = tables.campaignLinks.get(linkId)
        if (link !== undefined) {
          tables.campaignLinks.set(linkId, {
            ...link,
            clickCount: link.clickCount + 1,
            uniqueClickCount: link.uniqueClickCount + (existing === undefined ? 1 : 0)
          })
        }
        return { firstForSend: send?.clickCount === 1, firstForLink: existing === undefined }
      }),
    recordUnsubscribe: ({ at, campaignId, email, sendId, subscriberId }) =>
      Effect.sync(() => {
        const seen = [...tables.campaignUnsubscribes.values()].some((u) => u.campaignId === campaignId && u.subscriberId === subscriberId)
        if (seen) return false
        const id = state.nextId("campaignUnsubscribes")
        tables.campaignUnsubscribes.set(id, {
          id,
          campaignId,
          sendId,
          subscriberId,
          subscriberUuid: null,
          subscriberEmail: email,
          createdAt: at
        })
        return true
      }),
    recordBounce: (row) =>
      Effect.sync(() => {
        const earlier = row.sendId !== null && [...tables.bounces.values()].some((b) => b.sendId === row.sendId)
        const id = state.nextId("bounces")
        tables.bounces.set(id, { ...row, id, createdAt: row.at })
        return row.sendId !== null && !earlier
      }),
    softBounceStreak: (email) =>
      Effect.sync(() => {
        const bounced = new Set([...tables.bounces.values()].map((b) => b.sendId))
        const delivered = [...tables.sends.values()].map((r) => r.send)
          .filter((s) => s.email === email && s.sentAt !== null && !bounced.has(s.id))
          .reduce((latest, s) => Math.max(latest, s.sentAt!.getTime()), -Infinity)
        return [...tables.bounces.values()]
          .filter((b) => b.email === email && b.type === "soft_bounce" && b.createdAt.getTime() > delivered).length
      }),
    ...memoryMailStatistics<CampaignId>(state, {
      mailKey: "campaignId",
      links: (id) => [...tables.campaignLinks.values()].filter((l) => l.campaignId === id) as Array<ClickRow>,
      unsubscribes: (id) =>
        [...tables.campaignUnsubscribes.values()].filter((u) => u.campaignId === id)
          .map((u) => ({ id: u.id, mailId: u.campaignId, subscriberId: u.subscriberId, email: u.subscriberEmail, createdAt: u.createdAt }))
    })
  })
}
