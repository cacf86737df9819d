import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { CampaignLinkId } from "../../domain/Ids.js"
import { type CampaignLink, CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import { TrackingRepository } from "../../ports/TrackingRepository.js"
import { campaignFixtures } from "./campaignFixtures.js"
import { at, type MakeStorage } from "./fixtures.js"

/** Links by URL, whatever order a store returns them in, with only the port's fields. */
const byUrl = (links: ReadonlyArray<CampaignLink>) =>
  [...links].sort((a, b) => (a.url < b.url ? -1 : 1)).map(({ campaignId, clickCount, id, uniqueClickCount, url }) => ({
    id,
    campaignId,
    url,
    clickCount,
    uniqueClickCount
  }))

/** CampaignLinkRepository conformance: one tracked link per distinct URL of a campaign. */
export const campaignLinkContract = (makeStorage: MakeStorage) =>
  describe("CampaignLinkRepository", () => {
    const { audience, campaign, run } = campaignFixtures(makeStorage)

    it.effect("creates the missing links of a campaign and returns the existing ones with their counters", () =>
      run(Effect.gen(function*() {
        const links = yield* CampaignLinkRepository
        const { campaign: c, sends: [send] } = yield* audience(["a@example.com"])
        const other = yield* campaign()
        const a = "https://example.com/a?x=1&y=2"
        const b = "https://example.com/b#top"

        const first = byUrl(yield* links.ensure(c.id, [b, a]))
        expect(first.map((l) => l.url)).toEqual([a, b])
        expect(first.every((l) => l.id > 0 && l.campaignId === c.id && l.clickCount === 0 && l.uniqueClickCount === 0)).toBe(true)
        expect(first[0]!.id).not.toBe(first[1]!.id)

        yield* Effect.flatMap(TrackingRepository, (r) => r.recordClick(send!.id, first[1]!.id, at(5)))
        const again = byUrl(yield* links.ensure(c.id, [a, b, "https://example.com/c"]))
        expect(again.slice(0, 2)).toEqual([first[0], { ...first[1]!, clickCount: 1, uniqueClickCount: 1 }])
        expect(again[2]).toMatchObject({ campaignId: c.id, url: "https://example.com/c", clickCount: 0 })
        expect(new Set(again.map((l) => l.id)).size).toBe(3)
        expect(byUrl(yield* links.ensure(c.id, [b]))).toEqual([again[1]])
        expect(yield* links.ensure(c.id, [])).toEqual([])

        const theirs = byUrl(yield* links.ensure(other.id, [a]))
        expect(theirs[0]).toMatchObject({ campaignId: other.id, url: a, clickCount: 0 })
        expect(theirs[0]!.id).not.toBe(first[0]!.id)
      })))

    it.effect("finds a link by id", () =>
      run(Effect.gen(function*() {
        const links = yield* CampaignLinkRepository
        const c = yield* campaign()
        const [link] = yield* links.ensure(c.id, ["https://example.com/"])
        expect(byUrl([Option.getOrThrow(yield* links.findById(link!.id))])).toEqual(byUrl([link!]))
        expect(Option.isNone(yield* links.findById(999 as CampaignLinkId))).toBe(true)
      })))
  })
