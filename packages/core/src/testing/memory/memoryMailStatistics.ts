import { Effect } from "effect"
import type { Page } from "../../domain/CollectionQuery.js"
import type { BounceRow, ClickRow, OpenRow, UnsubscribeRow } from "../../domain/Feedback.js"
import type { TrackingRepository } from "../../ports/TrackingRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** A page without the rows' ids (the SQL stores do not return them). */
const withoutIds = <A extends { readonly id: number }>(page: Page<A>): Page<Omit<A, "id">> => ({
  total: page.total,
  items: page.items.map(({ id: _id, ...row }) => row)
})

/** An unsubscribe as a mail's statistics read it. */
export interface MemoryUnsubscribe {
  readonly id: number
  readonly mailId: number
  readonly subscriberId: number
  readonly email: string
  readonly createdAt: Date
}

/** Where a campaign-shaped mail's statistics are in the in-memory state. */
export interface MemoryMailTables<Id> {
  /** The field naming the mail on sends and bounces. */
  readonly mailKey: "campaignId" | "automationMailId"
  /** Its tracked links. */
  readonly links: (id: Id) => Iterable<ClickRow>
  /** Its unsubscribes. */
  readonly unsubscribes: (id: Id) => Iterable<MemoryUnsubscribe>
}

/** The statistics pages of a campaign-shaped mail, by its id. */
type Statistics<Id> = {
  readonly [K in "opens" | "clicks" | "unsubscribes" | "bounces"]: (
    id: Id,
    query: Parameters<TrackingRepository["Type"][K]>[1]
  ) => ReturnType<TrackingRepository["Type"][K]>
}

/** A campaign-shaped mail's opens, clicks, unsubscribes and bounces over the in-memory state, as the SQL stores page them. */
export const memoryMailStatistics = <Id extends number>(state: MemoryState, tables: MemoryMailTables<Id>): Statistics<Id> => {
  const subscriberUuid = (id: number | null) => (id === null ? null : state.tables.subscribers.get(id)?.uuid ?? null)
  return {
    opens: (id, query) =>
      Effect.sync(() => {
        const rows = [...state.tables.sends.values()].map((r) => r.send)
          .filter((s) => (s[tables.mailKey] as number | null) === id && s.openCount > 0)
          .map((s): OpenRow & { readonly id: number } => ({
            id: s.id,
            subscriberId: s.subscriberId ?? 0,
            subscriberUuid: subscriberUuid(s.subscriberId),
            subscriberEmail: s.email,
            openCount: s.openCount,
            firstOpenedAt: s.firstOpenedAt!,
            lastOpenedAt: s.lastOpenedAt!
          }))
        return withoutIds(listPage(rows, query, {
          id: (r) => r.id,
          sorts: {
            email: (r) => r.subscriberEmail,
            open_count: (r) => r.openCount,
            first_opened_at: (r) => r.firstOpenedAt,
            last_opened_at: (r) => r.lastOpenedAt
          },
          filters: { search: (r, value) => containsIgnoringCase(r.subscriberEmail, value) }
        }))
      }),
    clicks: (id, query) =>
      Effect.sync(() =>
        listPage(tables.links(id), query, {
          id: (r) => r.id,
          sorts: { unique_click_count: (r) => r.uniqueClickCount, click_count: (r) => r.clickCount },
          filters: { search: (r, value) => containsIgnoringCase(r.url, value) }
        })
      ),
    unsubscribes: (id, query) =>
      Effect.sync(() => {
        const rows = [...tables.unsubscribes(id)].map((u): UnsubscribeRow & { readonly id: number } => ({
          id: u.id,
          campaignId: u.mailId,
          subscriberId: u.subscriberId,
          subscriberUuid: subscriberUuid(u.subscriberId),
          subscriberEmail: u.email,
          createdAt: u.createdAt
        }))
        return withoutIds(listPage(rows, query, {
          id: (r) => r.id,
          sorts: { created_at: (r) => r.createdAt },
          filters: {
            search: (r, value) => {
              const subscriber = state.tables.subscribers.get(r.subscriberId)
              return [r.subscriberEmail, subscriber?.firstName ?? null, subscriber?.lastName ?? null]
                .some((text) => containsIgnoringCase(text, value))
            }
          }
        }))
      }),
    bounces: (id, query) =>
      Effect.sync(() => {
        const groups = new Map<string, BounceRow & { readonly id: number }>()
        const bounces = [...state.tables.bounces.values()].filter((b) => b[tables.mailKey] === id).sort((x, y) => x.id - y.id)
        for (const b of bounces) {
          const key = `${b.email} ${b.type}`
          const existing = groups.get(key)
          const subscriber = b.subscriberId === null ? undefined : state.tables.subscribers.get(b.subscriberId)
          groups.set(key, existing === undefined
            ? {
              id: b.id,
              subscriberUuid: subscriber?.uuid ?? null,
              subscriberEmail: b.email,
              subscriberEmailListUuid: subscriber === undefined ? null : state.tables.emailLists.get(subscriber.emailListId)?.uuid ?? null,
              type: b.type,
              bounceCount: 1,
              createdAt: b.createdAt
            }
            : { ...existing, bounceCount: existing.bounceCount + 1 })
        }
        return withoutIds(listPage(groups.values(), query, {
          id: (r) => r.id,
          sorts: { email: (r) => r.subscriberEmail, bounce_count: (r) => r.bounceCount, created_at: (r) => r.createdAt },
          filters: {
            search: (r, value) => containsIgnoringCase(r.subscriberEmail, value),
            type: (r, value) => !["bounce", "soft_bounce", "complaint"].includes(value) || r.type === value
          }
        }))
      })
  }
}
