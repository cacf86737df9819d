import { Effect, Option } from "effect"
import { basisPoints, Campaign } from "../../domain/Campaign.js"
import type { CampaignId } from "../../domain/Ids.js"
import { CampaignRepository, type ListedCampaign } from "../../ports/CampaignRepository.js"
import { campaignEvents } from "../../events/campaignEvents.js"
import { now } from "../../usecases/now.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import { recordMemoryEvents } from "./memoryEvents.js"
import type { MemoryState } from "./MemoryState.js"

/** The `sent` sort key: unscheduled drafts after everything else, then schedule, send or update time. */
const sentKey = (c: Campaign): string =>
  c.status === "draft" ? "9999" : (c.scheduledAt ?? c.sentAt ?? c.updatedAt).toISOString()

/** CampaignRepository over the in-memory state. */
export const makeMemoryCampaignRepository = (state: MemoryState) => {
  const rows = () => state.tables.campaigns
  const listUuid = (c: Campaign) => (c.emailListId === null ? null : state.tables.emailLists.get(c.emailListId)?.uuid ?? null)
  const change = (id: number, changes: Partial<Campaign>) => {
    const existing = rows().get(id)
    if (existing === undefined) return Option.none<Campaign>()
    const row = new Campaign({ ...existing, ...changes })
    rows().set(id, row)
    return Option.some(row)
  }
  const templateUuid = (c: Campaign) => (c.templateId === null ? null : state.tables.templates.get(c.templateId)?.uuid ?? null)

  return CampaignRepository.of({
    insert: (campaign) =>
      Effect.sync(() => {
        const row = new Campaign({ ...campaign, id: state.nextId("campaigns") as CampaignId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, content) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        return existing === undefined || !["draft", "scheduled"].includes(existing.status) ? Option.none() : change(id, content)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    statusOf: (id) => Effect.sync(() => Option.map(Option.fromNullable(rows().get(id)), (campaign) => campaign.status)),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((c) => c.uuid === uuid))),
    delete: (id) =>
      Effect.sync(() => {
        for (const [key, row] of state.tables.sends) if (row.send.campaignId === id) state.tables.sends.delete(key)
        for (const [key, link] of state.tables.campaignLinks) if (link.campaignId === id) state.tables.campaignLinks.delete(key)
        return rows().delete(id)
      }),
    list: (query) =>
      Effect.sync(() => {
        const page = listPage(rows().values(), query, {
          id: (c) => c.id,
          sorts: {
            name: (c) => c.name,
            email_list_id: (c) => c.emailListId,
            unique_open_count: (c) => c.uniqueOpenCount,
            unique_click_count: (c) => c.uniqueClickCount,
            unsubscribe_rate: (c) => basisPoints(c.unsubscribeCount, c.sentToNumberOfSubscribers),
            sent_to_number_of_subscribers: (c) => c.sentToNumberOfSubscribers,
            sent: sentKey
          },
          filters: {
            search: (c, value) => containsIgnoringCase(c.name, value),
            status: (c, value) =>
              !["draft", "scheduled", "sending", "paused", "sent", "cancelled"].includes(value) || c.status === value,
            email_list_id: (c, value) => String(c.emailListId) === value.trim(),
            "emailList.uuid": (c, value) => listUuid(c) === value.trim().toLowerCase(),
            "contentItem.template.uuid": (c, value) => templateUuid(c) === value.trim().toLowerCase()
          }
        })
        return { total: page.total, items: page.items.map((campaign): ListedCampaign => ({
            campaign,
            emailListUuid: listUuid(campaign),
            templateUuid: templateUuid(campaign),
            segmentUuid: campaign.segmentId === null ? null : state.tables.segments.get(campaign.segmentId)?.uuid ?? null
          }))
        }
      }),
    transition: (id, from, to, changes = {}) =>
      Effect.flatMap(now, (at) => Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined || !from.includes(existing.status)) return Option.none()
        const moved = change(id, { ...changes, status: to })
        recordMemoryEvents(state, campaignEvents(existing, from, to, changes.updatedAt ?? at))
        return moved
      })),
    withStatus: (statuses) => Effect.sync(() => [...rows().values()].filter((c) => statuses.includes(c.status))),
    due: (now) =>
      Effect.sync(() =>
        [...rows().values()].filter((c) => c.status === "scheduled" && c.scheduledAt !== null && c.scheduledAt <= now)
      ),
    addCounters: (id, delta, at) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return
        const next: Record<string, number> = {}
        for (const [key, value] of Object.entries(delta)) next[key] = (existing[key as keyof typeof delta] ?? 0) + (value ?? 0)
        change(id, { ...next, statisticsCalculatedAt: at })
      }),
    addSent: (id, count) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing !== undefined && count !== 0) change(id, { sentToNumberOfSubscribers: existing.sentToNumberOfSubscribers + count })
      }),
    saveAudienceProgress: (id, cursor, frozenAt) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing !== undefined) change(id, { audienceCursor: Math.max(existing.audienceCursor, cursor), audienceFrozenAt: existing.audienceFrozenAt ?? frozenAt })
      })
  })
}
