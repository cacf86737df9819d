import { Effect } from "effect"
import type { BounceRow, ClickRow, OpenRow } from "../../domain/Feedback.js"
import { Send } from "../../domain/Send.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
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
  const subscriberUuid = (id: number | null) => (id === null ? null : tables.subscribers.get(id)?.uuid ?? null)

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
    opens: (campaignId, query) =>
      Effect.sync(() => {
        const rows = [...tables.sends.values()].map((r) => r.send)
          .filter((s) => s.campaignId === campaignId && s.openCount > 0)
          .map((s): OpenRow & { readonly id: number } => ({
            id: s.id,
            subscriberId: s.subscriberId ?? 0,
            subscriberUuid: subscriberUuid(s.subscriberId),
            subscriberEmail: s.email,
            openCount: s.openCount,
            firstOpenedAt: s.firstOpenedAt!,
            lastOpenedAt: s.lastOpenedAt!
          }))
        return listPage(rows, query, {
          id: (r) => r.id,
          sorts: {
            email: (r) => r.subscriberEmail,
            open_count: (r) => r.openCount,
            first_opened_at: (r) => r.firstOpenedAt,
            last_opened_at: (r) => r.lastOpenedAt
          },
          filters: { search: (r, value) => containsIgnoringCase(r.subscriberEmail, value) }
        })
      }),
    clicks: (campaignId, query) =>
      Effect.sync(() =>
        listPage([...tables.campaignLinks.values()].filter((l) => l.campaignId === campaignId) as Array<ClickRow>, query, {
          id: (r) => r.id,
          sorts: { unique_click_count: (r) => r.uniqueClickCount, click_count: (r) => r.clickCount },
          filters: { search: (r, value) => containsIgnoringCase(r.url, value) }
        })
      ),
    unsubscribes: (campaignId, query) =>
      Effect.sync(() => {
        const rows = [...tables.campaignUnsubscribes.values()].filter((u) => u.campaignId === campaignId)
          .map((u) => ({ ...u, subscriberUuid: subscriberUuid(u.subscriberId) }))
        return listPage(rows, query, {
          id: (r) => r.id,
          sorts: { created_at: (r) => r.createdAt },
          filters: {
            search: (r, value) => {
              const subscriber = tables.subscribers.get(r.subscriberId)
              return [r.subscriberEmail, subscriber?.firstName ?? null, subscriber?.lastName ?? null]
                .some((text) => containsIgnoringCase(text, value))
            }
          }
        })
      }),
    bounces: (campaignId, query) =>
      Effect.sync(() => {
        const groups = new Map<string, BounceRow & { readonly id: number }>()
        for (const b of [...tables.bounces.values()].filter((b) => b.campaignId === campaignId).sort((x, y) => x.id - y.id)) {
          const key = `${b.email} ${b.type}`
          const existing = groups.get(key)
          const subscriber = b.subscriberId === null ? undefined : tables.subscribers.get(b.subscriberId)
          groups.set(key, existing === undefined
            ? {
              id: b.id,
              subscriberUuid: subscriber?.uuid ?? null,
              subscriberEmail: b.email,
              subscriberEmailListUuid: subscriber === undefined ? null : tables.emailLists.get(subscriber.emailListId)?.uuid ?? null,
              type: b.type,
              bounceCount: 1,
              createdAt: b.createdAt
            }
            : { ...existing, bounceCount: existing.bounceCount + 1 })
        }
        return listPage(groups.values(), query, {
          id: (r) => r.id,
          sorts: { email: (r) => r.subscriberEmail, bounce_count: (r) => r.bounceCount, created_at: (r) => r.createdAt },
          filters: {
            search: (r, value) => containsIgnoringCase(r.subscriberEmail, value),
            type: (r, value) => !["bounce", "soft_bounce", "complaint"].includes(value) || r.type === value
          }
        })
      })
  })
}
