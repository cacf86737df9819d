import { Effect, Option } from "effect"
import type { AutomationMailId } from "../../automations/AutomationIds.js"
import { AutomationMail } from "../../automations/AutomationMail.js"
import {
  type AutomationMailLink,
  AutomationMailRepository,
  type ClaimedAutomationSend
} from "../../automations/AutomationMailRepository.js"
import type { SendId } from "../../domain/Ids.js"
import { Send } from "../../domain/Send.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import { memoryMailStatistics } from "./memoryMailStatistics.js"
import type { MemoryState } from "./MemoryState.js"
import { pendingSend } from "./pendingSend.js"

/** AutomationMailRepository over the in-memory state (sends live in the shared sends table). */
export const makeMemoryAutomationMailRepository = (state: MemoryState) => {
  const rows = () => state.tables.automationMails
  const links = () => state.tables.automationMailLinks
  const toLink = (row: { readonly id: number; readonly automationMailId: number; readonly url: string }): AutomationMailLink => ({
    id: row.id,
    automationMailId: row.automationMailId as AutomationMailId,
    url: row.url
  })

  return AutomationMailRepository.of({
    insert: (mail) =>
      Effect.sync(() => {
        const row = new AutomationMail({ ...mail, id: state.nextId("automationMails") as AutomationMailId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = new AutomationMail({ ...existing, ...changes, id: existing.id, uuid: existing.uuid, createdAt: existing.createdAt })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((m) => m.uuid === uuid))),
    findByIds: (ids) => Effect.sync(() => [...new Set(ids)].flatMap((id) => rows().get(id) ?? [])),
    delete: (id) =>
      Effect.sync(() => {
        if (!rows().delete(id)) return false
        const linkIds = new Set([...links().values()].filter((link) => link.automationMailId === id).map((link) => link.id))
        for (const linkId of linkIds) links().delete(linkId)
        for (const [key, c] of state.tables.automationMailClicks) if (linkIds.has(c.linkId)) state.tables.automationMailClicks.delete(key)
        for (const [key, u] of state.tables.automationMailUnsubscribes) {
          if (u.automationMailId === id) state.tables.automationMailUnsubscribes.delete(key)
        }
        return true
      }),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (m) => m.id,
          sorts: { name: (m) => m.name, created_at: (m) => m.createdAt },
          filters: {
            search: (m, value) => containsIgnoringCase(m.name, value) || containsIgnoringCase(m.subject, value),
            name: (m, value) => m.name.toLowerCase() === value.trim().toLowerCase(),
            uuid: (m, value) => m.uuid === value.trim().toLowerCase()
          }
        })
      ),
    queueSends: (sends, at) =>
      Effect.sync(() => {
        const taken = new Set(
          [...state.tables.sends.values()].flatMap((r) =>
            r.automationRunId === undefined || r.automationRunId === null ? [] : [`${r.automationRunId}:${r.send.automationMailId}`]
          )
        )
        let inserted = 0
        for (const send of sends) {
          const key = `${send.runId}:${send.mailId}`
          if (taken.has(key)) continue
          taken.add(key)
          const id = state.nextId("sends") as SendId
          state.tables.sends.set(id, {
            ...pendingSend({
              id,
              uuid: send.uuid,
              campaignId: null,
              transactionalMailId: null,
              automationMailId: send.mailId,
              subscriberId: send.subscriberId,
              email: send.email
            }, at),
            automationRunId: send.runId
          })
          inserted++
        }
        return inserted
      }),
    claim: ({ leaseUntil, limit, now, owner }) =>
      Effect.sync(() => {
        const due = [...state.tables.sends.values()]
          .filter((r) =>
            r.send.automationMailId !== null && r.send.sentAt === null && r.send.failedAt === null &&
            (r.lockedUntil === null || r.lockedUntil < now) && (r.retryAt === null || r.retryAt <= now)
          )
          .sort((a, b) => a.send.id - b.send.id)
          .slice(0, limit)
        return due.map((r): ClaimedAutomationSend => {
          state.tables.sends.set(r.send.id, { ...r, lockedUntil: leaseUntil, leaseOwner: owner })
          const subscriber = r.send.subscriberId === null ? undefined : state.tables.subscribers.get(r.send.subscriberId)
          const list = subscriber === undefined ? undefined : state.tables.emailLists.get(subscriber.emailListId)
          return {
            id: r.send.id,
            uuid: r.send.uuid,
            email: r.send.email,
            attempts: r.send.attempts,
            deferredSince: r.deferredSince,
            mailId: r.send.automationMailId!,
            mailUpdatedAt: rows().get(r.send.automationMailId!)?.updatedAt ?? null,
            subscriber: subscriber === undefined ? null : {
              id: r.send.subscriberId!,
              uuid: subscriber.uuid,
              email: subscriber.email,
              firstName: subscriber.firstName,
              lastName: subscriber.lastName,
              extraAttributes: subscriber.extraAttributes,
              subscribed: subscriberStatus(subscriber) === "subscribed"
            },
            list: list === undefined ? null : {
              id: list.id,
              uuid: list.uuid,
              name: list.name,
              defaultFromEmail: list.defaultFromEmail,
              defaultFromName: list.defaultFromName,
              defaultReplyToEmail: list.defaultReplyToEmail,
              defaultReplyToName: list.defaultReplyToName
            }
          }
        })
      }),
    addCounters: (id, delta) =>
      Effect.sync(() => {
        const mail = rows().get(id)
        if (mail === undefined) return
        const changes: Record<string, number> = {}
        for (const [key, value] of Object.entries(delta)) {
          if (value !== undefined) changes[key] = (mail[key as keyof typeof delta] as number) + Math.trunc(value)
        }
        rows().set(id, new AutomationMail({ ...mail, ...changes }))
      }),
    ensureLinks: (id, urls) =>
      Effect.sync(() =>
        urls.map((url) => {
          const existing = [...links().values()].find((link) => link.automationMailId === id && link.url === url)
          if (existing !== undefined) return toLink(existing)
          const link = { id: state.nextId("automationMailLinks"), automationMailId: id, url, clickCount: 0, uniqueClickCount: 0 }
          links().set(link.id, link)
          return toLink(link)
        })
      ),
    findLink: (linkId) => Effect.sync(() => Option.map(Option.fromNullable(links().get(linkId)), toLink)),
    recordClick: (sendId, linkId, at) =>
      Effect.sync(() => {
        const row = state.tables.sends.get(sendId)
        const before = row?.send.clickCount ?? 0
        if (row !== undefined) {
          const s = row.send
          state.tables.sends.set(sendId, {
            ...row,
            send: new Send({ ...s, clickCount: s.clickCount + 1, firstClickedAt: s.firstClickedAt ?? at, lastClickedAt: at })
          })
        }
        const clicks = state.tables.automationMailClicks
        const existing = [...clicks.entries()].find(([, c]) => c.sendId === sendId && c.linkId === linkId)
        if (existing === undefined) clicks.set(state.nextId("automationMailClicks"), { sendId, linkId, clickCount: 1 })
        else clicks.set(existing[0], { ...existing[1], clickCount: existing[1].clickCount + 1 })
        const link = links().get(linkId)
        if (link !== undefined) {
          links().set(linkId, {
            ...link,
            clickCount: link.clickCount + 1,
            uniqueClickCount: link.uniqueClickCount + (existing === undefined ? 1 : 0)
          })
        }
        return { firstForSend: row !== undefined && before === 0, firstForLink: existing === undefined }
      }),
    recordUnsubscribe: ({ at, email, mailId, sendId, subscriberId }) =>
      Effect.sync(() => {
        const table = state.tables.automationMailUnsubscribes
        if ([...table.values()].some((u) => u.automationMailId === mailId && u.subscriberId === subscriberId)) return false
        const id = state.nextId("automationMailUnsubscribes")
        table.set(id, { id, automationMailId: mailId, sendId, subscriberId, email, createdAt: at })
        return true
      }),
    ...memoryMailStatistics<AutomationMailId>(state, {
      mailKey: "automationMailId",
      links: (id) => [...state.tables.automationMailLinks.values()].filter((l) => l.automationMailId === id),
      unsubscribes: (id) =>
        [...state.tables.automationMailUnsubscribes.values()].filter((u) => u.automationMailId === id)
          .map((u) => ({ ...u, mailId: u.automationMailId }))
    })
  })
}
