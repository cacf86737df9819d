import { Effect, Option } from "effect"
import type { CampaignLinkId } from "../../domain/Ids.js"
import { CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import type { MemoryState } from "./MemoryState.js"

/** CampaignLinkRepository over the in-memory state. */
export const makeMemoryCampaignLinkRepository = (state: MemoryState) => {
  const rows = () => state.tables.campaignLinks
  return CampaignLinkRepository.of({
    ensure: (campaignId, urls) =>
      Effect.sync(() =>
        urls.map((url) => {
          const existing = [...rows().values()].find((link) => link.campaignId === campaignId && link.url === url)
          if (existing !== undefined) return existing
          const link = { id: state.nextId("campaignLinks") as CampaignLinkId, campaignId, url, clickCount: 0, uniqueClickCount: 0 }
          rows().set(link.id, link)
          return link
        })
      ),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id)))
  })
}
