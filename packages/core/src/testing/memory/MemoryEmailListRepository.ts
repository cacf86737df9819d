import { Effect, Option } from "effect"
import { Campaign } from "../../domain/Campaign.js"
import { EmailList } from "../../domain/EmailList.js"
import type { EmailListId } from "../../domain/Ids.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** EmailListRepository over the in-memory state. */
export const makeMemoryEmailListRepository = (state: MemoryState) => {
  const rows = () => state.tables.emailLists
  return EmailListRepository.of({
    insert: (list) =>
      Effect.sync(() => {
        const row = new EmailList({ ...list, id: state.nextId("emailLists") as EmailListId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, settings) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = new EmailList({ ...existing, ...settings })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((l) => l.uuid === uuid))),
    delete: (id) =>
      Effect.sync(() => {
        const { campaignClicks, segments, sends, subscriberTags, subscribers, tags } = state.tables
        const members = new Set<number | null>()
        for (const [key, row] of subscribers) {
          if (row.emailListId === id) {
            members.add(key)
            subscribers.delete(key)
            subscriberTags.delete(key)
          }
        }
        const gone = new Set([...sends.values()].filter((r) => members.has(r.send.subscriberId)).map((r) => r.send.id as number))
        for (const sendId of gone) sends.delete(sendId)
        for (const [key, click] of campaignClicks) if (gone.has(click.sendId)) campaignClicks.delete(key)
        for (const [key, row] of tags) if (row.emailListId === id) tags.delete(key)
        for (const [key, row] of segments) if (row.emailListId === id) segments.delete(key)
        for (const [key, row] of state.tables.campaigns) {
          if (row.emailListId === id) state.tables.campaigns.set(key, new Campaign({ ...row, emailListId: null, segmentId: null }))
        }
        const { importErrors, importParts, subscriberImports } = state.tables
        const imports = new Set([...subscriberImports.values()].filter((i) => i.emailListId === id).map((i) => i.id as number))
        for (const [key, part] of importParts) if (imports.has(part.importId)) importParts.delete(key)
        for (const [key, error] of importErrors) if (imports.has(error.importId)) importErrors.delete(key)
        for (const importId of imports) subscriberImports.delete(importId)
        return rows().delete(id)
      }),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (l) => l.id,
          sorts: {
            name: (l) => l.name,
            created_at: (l) => l.createdAt,
            active_subscribers_count: (l) => l.activeSubscribersCount
          },
          filters: {
            search: (l, value) => containsIgnoringCase(l.name, value),
            name: (l, value) => l.name === value
          }
        })
      )
  })
}
