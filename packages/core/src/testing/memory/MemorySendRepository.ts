import { Effect, Option } from "effect"
import type { SendId, SendUuid, SubscriberId } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { matchesSegmentRule } from "../../domain/SegmentRule.js"
import { type ClaimedSend, Send } from "../../domain/Send.js"
import { sendStatus } from "../../domain/SendStatus.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { type ListedSend, SendRepository } from "../../ports/SendRepository.js"
import { mailEvent, sentEvents } from "../../events/mailEvents.js"
import { listPage } from "./listPage.js"
import { recordMemoryEvents } from "./memoryEvents.js"
import { bareMessageId } from "../../feedback/bareMessageId.js"
import { pendingSend } from "./pendingSend.js"
import type { MemoryState } from "./MemoryState.js"

/** SendRepository over the in-memory state. */
export const makeMemorySendRepository = (state: MemoryState) => {
  const rows = () => state.tables.sends
  const pending = (send: Send) => send.sentAt === null && send.failedAt === null
  const listed = (send: Send): ListedSend => ({
    send,
    campaignUuid: send.campaignId === null ? null : state.tables.campaigns.get(send.campaignId)?.uuid ?? null,
    transactionalMailUuid: send.transactionalMailId === null
      ? null
      : state.tables.transactionalMails.get(send.transactionalMailId)?.uuid ?? null,
    automationMailUuid: send.automationMailId === null ? null : state.tables.automationMails.get(send.automationMailId)?.uuid ?? null,
    subscriberUuid: send.subscriberId === null ? null : state.tables.subscribers.get(send.subscriberId)?.uuid ?? null
  })
  type Lease = { lockedUntil?: Date | null; leaseOwner?: string | null; retryAt?: Date | null; deferredSince?: Date | null }
  const free = { lockedUntil: null, leaseOwner: null }
  const listOf = (send: Send) => (send.subscriberId === null ? null : state.tables.subscribers.get(send.subscriberId)?.emailListId ?? null)
  const update = (id: number, changes: Partial<Send>, lease: Lease = {}) => {
    const row = rows().get(id)
    if (row !== undefined) rows().set(id, { ...row, ...lease, send: new Send({ ...row.send, ...changes }) })
  }

  return SendRepository.of({
    freezeBatch: ({ afterSubscriberId, at, campaignId, emailListId, limit, segment }) =>
      Effect.sync(() => {
        const candidates = [...state.tables.subscribers.values()]
          .filter((s) => s.emailListId === emailListId && s.id > afterSubscriberId)
          .sort((a, b) => a.id - b.id)
          .slice(0, limit)
        const suppressed = new Set([...state.tables.suppressions.values()].map((s) => s.email))
        const existing = new Set([...rows().values()].filter((r) => r.send.campaignId === campaignId).map((r) => r.send.subscriberId))
        for (const subscriber of candidates) {
          const tags = state.tables.subscriberTags.get(subscriber.id) ?? new Set<number>()
          const eligible = subscriberStatus(subscriber) === "subscribed" && !suppressed.has(subscriber.email) &&
            (segment === null || matchesSegmentRule(segment, tags)) && !existing.has(subscriber.id as SubscriberId)
          if (!eligible) continue
          const id = state.nextId("sends") as SendId
          rows().set(id, pendingSend({
            id,
            uuid: newUuid() as SendUuid,
            campaignId,
            transactionalMailId: null,
            subscriberId: subscriber.id as SubscriberId,
            email: subscriber.email
          }, at))
        }
        return { covered: candidates.length, lastSubscriberId: candidates.at(-1)?.id ?? afterSubscriberId }
      }),
    claim: ({ campaignId, leaseUntil, limit, now, owner }) =>
      Effect.sync(() => {
        const due = [...rows().values()]
          .filter((r) =>
            r.send.campaignId === campaignId && pending(r.send) && (r.lockedUntil === null || r.lockedUntil < now) &&
            (r.retryAt === null || r.retryAt <= now)
          )
          .sort((a, b) => a.send.id - b.send.id)
          .slice(0, limit)
        return due.map((r): ClaimedSend => {
          update(r.send.id, {}, { lockedUntil: leaseUntil, leaseOwner: owner })
          const subscriber = r.send.subscriberId === null ? undefined : state.tables.subscribers.get(r.send.subscriberId)
          return {
            id: r.send.id,
            uuid: r.send.uuid,
            email: r.send.email,
            attempts: r.send.attempts,
            deferredSince: r.deferredSince,
            subscriber: subscriber === undefined ? null : {
              ...subscriber,
              id: subscriber.id as SubscriberId,
              subscribed: subscriberStatus(subscriber) === "subscribed"
            }
          }
        })
      }),
    renew: ({ ids, leaseUntil, owner }) =>
      Effect.sync(() => {
        let held = 0
        for (const id of ids) {
          const row = rows().get(id)
          if (row === undefined || row.leaseOwner !== owner || !pending(row.send)) continue
          update(id, {}, { lockedUntil: leaseUntil })
          held++
        }
        return held
      }),
    release: ({ ids, owner }) =>
      Effect.sync(() => {
        for (const id of ids) {
          const row = rows().get(id)
          if (row !== undefined && row.leaseOwner === owner && pending(row.send)) update(id, {}, free)
        }
      }),
    record: (results, at) =>
      Effect.sync(() => {
        let sent = 0
        for (const result of results) {
          const row = rows().get(result.id)
          if (row === undefined || !pending(row.send)) continue
          const attempts = row.send.attempts + 1
          if (result._tag === "Sent") {
            update(result.id, {
              sentAt: at,
              failureReason: null,
              transportMessageId: result.transportMessageId,
              deliveryUncertain: result.uncertain === true,
              attempts,
              updatedAt: at
            }, { ...free, retryAt: null, deferredSince: null })
            sent++
            const send = rows().get(result.id)?.send
            if (send !== undefined) recordMemoryEvents(state, sentEvents(send, listOf(send), at))
          } else if (result._tag === "Failed") {
            update(result.id, {
              failedAt: at,
              failureReason: result.reason,
              attempts: result.attempted === true ? attempts : attempts - 1,
              updatedAt: at
            }, free)
            const send = rows().get(result.id)?.send
            if (send !== undefined) recordMemoryEvents(state, [mailEvent("mail.failed", send, listOf(send), at)])
          } else {
            update(result.id, { failureReason: result.reason, attempts, updatedAt: at }, {
              ...free,
              retryAt: result.retryAt,
              deferredSince: row.deferredSince ?? at
            })
          }
        }
        return sent
      }),
    pendingCount: (campaignId) =>
      Effect.sync(() => [...rows().values()].filter((r) => r.send.campaignId === campaignId && pending(r.send)).length),
    sentCount: (campaignId) =>
      Effect.sync(() => [...rows().values()].filter((r) => r.send.campaignId === campaignId && r.send.sentAt !== null).length),
    findByUuid: (uuid) =>
      Effect.sync(() => Option.map(Option.fromNullable([...rows().values()].find((r) => r.send.uuid === uuid)), (r) => listed(r.send))),
    findByIds: (ids) =>
      Effect.sync(() => [...new Set(ids)].sort((a, b) => a - b).flatMap((id) => {
        const row = rows().get(id)
        return row === undefined ? [] : [listed(row.send)]
      })),
    latestSentTo: (email) =>
      Effect.sync(() =>
        Option.fromNullable(
          [...rows().values()].map((r) => r.send).filter((send) => send.email === email && send.sentAt !== null)
            .sort((a, b) => b.sentAt!.getTime() - a.sentAt!.getTime() || b.id - a.id)[0]
        )
      ),
    findByTransportMessageId: (messageId) =>
      Effect.sync(() => {
        const bare = bareMessageId(messageId)
        return Option.fromNullable(
          [...rows().values()].map((r) => r.send)
            .filter((send) => send.transportMessageId !== null && bareMessageId(send.transportMessageId) === bare)
            .sort((a, b) => b.id - a.id)[0]
        )
      }),
    list: (query) =>
      Effect.sync(() => {
        // a mail sent with `store: false` has no log item: its send is not listed either
        const visible = [...rows().values()].filter((r) =>
          r.send.transactionalMailId === null || state.tables.transactionalMails.get(r.send.transactionalMailId)?.stored !== false
        )
        const page = listPage(visible.map((r) => listed(r.send)), query, {
          id: (l) => l.send.id,
          sorts: { sent_at: (l) => l.send.sentAt },
          filters: {
            status: (l, value) => sendStatus(l.send) === value,
            subscriber_uuid: (l, value) => l.subscriberUuid === value.trim().toLowerCase(),
            campaign_uuid: (l, value) => l.campaignUuid === value.trim().toLowerCase(),
            automation_mail_uuid: (l, value) => l.automationMailUuid === value.trim().toLowerCase(),
            transactional_mail_log_item_uuid: (l, value) => l.transactionalMailUuid === value.trim().toLowerCase()
          }
        })
        return page
      }),
    delete: (id) => Effect.sync(() => rows().delete(id))
  })
}
