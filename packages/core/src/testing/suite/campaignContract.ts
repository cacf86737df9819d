import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Campaign } from "../../domain/Campaign.js"
import type { CampaignId, CampaignUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { CampaignLinkRepository } from "../../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../../ports/CampaignRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import { SendRepository } from "../../ports/SendRepository.js"
import { TemplateRepository } from "../../ports/TemplateRepository.js"
import { aCampaign, campaignFixtures, contentOf, sortedIds } from "./campaignFixtures.js"
import { aSegment, aTemplate, at, type MakeStorage } from "./fixtures.js"

/** CampaignRepository conformance: writes, conditional status moves, the delivery loop's queries and counters. */
export const campaignContract = (makeStorage: MakeStorage) =>
  describe("CampaignRepository", () => {
    const { aList, audience, campaign, found, run } = campaignFixtures(makeStorage)

    it.effect("inserts and finds by id and uuid, keeping every field", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const list = yield* aList
        const template = yield* Effect.flatMap(TemplateRepository, (r) => r.insert(aTemplate()))
        const segment = yield* Effect.flatMap(SegmentRepository, (r) => r.insert(aSegment(list)))
        const full = aCampaign({
          name: "Grüße 👋 & news",
          emailListId: list,
          templateId: template.id,
          segmentId: segment.id,
          status: "paused",
          subject: "Hello [[[first_name]]]",
          html: "<h1>[[[title]]]</h1>",
          structuredHtml: "{\"blocks\":[]}",
          fields: { title: "Spring", body: "Grüße 👋 \"quoted\"" },
          emailHtml: "<html><body>mail</body></html>",
          webviewHtml: "<html><body>web</body></html>",
          mailableClass: "App\\Mail\\Newsletter",
          fromEmail: "from@example.com",
          fromName: "From",
          replyToEmail: "reply@example.com",
          replyToName: "Reply",
          segmentDescription: "Engaged readers",
          utmTags: true,
          addSubscriberTags: true,
          addSubscriberLinkTags: true,
          disableWebview: true,
          sentToNumberOfSubscribers: 10,
          openCount: 9,
          uniqueOpenCount: 8,
          clickCount: 7,
          uniqueClickCount: 6,
          unsubscribeCount: 5,
          bounceCount: 4,
          audienceCursor: 42,
          audienceFrozenAt: at(3),
          scheduledAt: at(1),
          sentAt: at(4),
          statisticsCalculatedAt: at(5),
          summaryMailSentAt: at(6),
          createdAt: at(0),
          updatedAt: at(2)
        })
        const saved = yield* repo.insert(full)
        expect(saved.id).toBeGreaterThan(0)
        expect(saved).toEqual(new Campaign({ ...full, id: saved.id }))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(Option.isNone(yield* repo.findById(999 as CampaignId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as CampaignUuid))).toBe(true)

        const bare = aCampaign({ subject: null, html: null, fromEmail: null, fromName: null })
        const empty = yield* repo.insert(bare)
        expect(empty.id).toBeGreaterThan(saved.id)
        expect(empty).toEqual(new Campaign({ ...bare, id: empty.id }))
        expect(Option.getOrThrow(yield* repo.findByUuid(bare.uuid))).toEqual(empty)
      })))

    it.effect("updates the content of a draft or scheduled campaign only, keeping ids, counters and delivery times", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const list = yield* aList
        const saved = yield* campaign({ uniqueOpenCount: 3, audienceCursor: 7, createdAt: at(1), updatedAt: at(1) })
        const other = yield* campaign({ name: "Other" })
        const content = {
          ...contentOf(saved),
          name: "Renamed",
          emailListId: list,
          subject: null,
          fields: { title: "New" },
          utmTags: true,
          scheduledAt: at(50),
          updatedAt: at(5)
        }
        const updated = Option.getOrThrow(yield* repo.update(saved.id, { ...content, status: "scheduled" }))
        expect(updated).toEqual(new Campaign({ ...saved, ...content, status: "scheduled" }))
        expect(yield* found(saved.id)).toEqual(updated)
        expect(yield* found(other.id)).toEqual(other)

        const again = Option.getOrThrow(yield* repo.update(saved.id, { ...content, scheduledAt: null, status: "draft" }))
        expect(again.status).toBe("draft")
        expect(again.scheduledAt).toBeNull()

        yield* repo.transition(saved.id, ["draft"], "sending")
        const sending = yield* found(saved.id)
        expect(Option.isNone(yield* repo.update(saved.id, { ...content, name: "Too late", status: "draft" }))).toBe(true)
        expect(yield* found(saved.id)).toEqual(sending)
        expect(Option.isNone(yield* repo.update(999 as CampaignId, { ...content, status: "draft" }))).toBe(true)
      })))

    it.effect("moves the status only from the allowed statuses, applying the given changes and nothing else", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const saved = yield* campaign({ status: "scheduled", scheduledAt: at(10), updatedAt: at(1) })

        expect(Option.isNone(yield* repo.transition(saved.id, ["sending", "paused"], "cancelled"))).toBe(true)
        expect(yield* found(saved.id)).toEqual(saved)

        const started = Option.getOrThrow(yield* repo.transition(saved.id, ["draft", "scheduled"], "sending", {
          fromEmail: "frozen@example.com",
          fromName: null,
          segmentDescription: "Frozen segment",
          emailHtml: "<html>frozen</html>",
          updatedAt: at(11)
        }))
        expect(started).toEqual(new Campaign({
          ...saved,
          status: "sending",
          fromEmail: "frozen@example.com",
          fromName: null,
          segmentDescription: "Frozen segment",
          emailHtml: "<html>frozen</html>",
          updatedAt: at(11)
        }))
        expect(yield* found(saved.id)).toEqual(started)
        expect(Option.isNone(yield* repo.transition(saved.id, ["draft", "scheduled"], "sending"))).toBe(true)

        const paused = Option.getOrThrow(yield* repo.transition(saved.id, ["sending"], "paused"))
        expect(paused).toEqual(new Campaign({ ...started, status: "paused" }))
        yield* repo.transition(saved.id, ["paused"], "sending")
        const sent = Option.getOrThrow(yield* repo.transition(saved.id, ["sending"], "sent", {
          sentAt: at(20),
          sentToNumberOfSubscribers: 3,
          updatedAt: at(20)
        }))
        expect(sent.status).toBe("sent")
        expect(sent.sentAt).toEqual(at(20))
        expect(sent.sentToNumberOfSubscribers).toBe(3)
        expect(sent.updatedAt).toEqual(at(20))
        expect(Option.isNone(yield* repo.transition(saved.id, ["sending", "paused", "scheduled"], "cancelled"))).toBe(true)
        expect(yield* found(saved.id)).toEqual(sent)
        expect(Option.isNone(yield* repo.transition(999 as CampaignId, ["draft"], "scheduled"))).toBe(true)

        const scheduled = yield* campaign({ status: "scheduled", scheduledAt: at(30) })
        const unscheduled = Option.getOrThrow(yield* repo.transition(scheduled.id, ["scheduled"], "draft", { scheduledAt: null }))
        expect(unscheduled.status).toBe("draft")
        expect(unscheduled.scheduledAt).toBeNull()
      })))

    it.effect("deletes once, with its sends and tracked links, leaving other campaigns' ones", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const sends = yield* SendRepository
        const links = yield* CampaignLinkRepository
        const doomed = yield* audience(["a@example.com", "b@example.com"])
        const kept = yield* audience(["c@example.com"])
        const [doomedLink] = yield* links.ensure(doomed.campaign.id, ["https://example.com/a"])
        const [keptLink] = yield* links.ensure(kept.campaign.id, ["https://example.com/a"])

        expect(yield* repo.delete(doomed.campaign.id)).toBe(true)
        expect(yield* repo.delete(doomed.campaign.id)).toBe(false)
        expect(Option.isNone(yield* repo.findById(doomed.campaign.id))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(doomed.campaign.uuid))).toBe(true)
        expect(yield* sends.pendingCount(doomed.campaign.id)).toBe(0)
        expect(Option.isNone(yield* sends.findByUuid(doomed.sends[0]!.uuid))).toBe(true)
        expect(Option.isNone(yield* links.findById(doomedLink!.id))).toBe(true)

        expect(yield* found(kept.campaign.id)).toEqual(kept.campaign)
        expect(yield* sends.pendingCount(kept.campaign.id)).toBe(1)
        expect(Option.getOrThrow(yield* links.findById(keptLink!.id)).url).toBe("https://example.com/a")
      })))

    it.effect("lists the campaigns in given statuses, and the scheduled ones whose time has come", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const draft = yield* campaign({ status: "draft", scheduledAt: at(5) })
        const early = yield* campaign({ status: "scheduled", scheduledAt: at(10) })
        const onTime = yield* campaign({ status: "scheduled", scheduledAt: at(20) })
        const later = yield* campaign({ status: "scheduled", scheduledAt: at(21) })
        const sending = yield* campaign({ status: "sending", scheduledAt: at(5) })
        const paused = yield* campaign({ status: "paused" })
        yield* campaign({ status: "sent", sentAt: at(1) })
        yield* campaign({ status: "cancelled", scheduledAt: at(5) })

        expect(sortedIds(yield* repo.withStatus(["sending"]))).toEqual([sending.id])
        expect(sortedIds(yield* repo.withStatus(["sending", "paused"]))).toEqual([sending.id, paused.id])
        expect(sortedIds(yield* repo.withStatus(["draft", "scheduled"]))).toEqual([draft.id, early.id, onTime.id, later.id])
        expect(yield* repo.withStatus(["sending"])).toEqual([sending])

        expect(yield* repo.due(at(9))).toEqual([])
        expect(sortedIds(yield* repo.due(at(20)))).toEqual([early.id, onTime.id])
        expect(sortedIds(yield* repo.due(at(1000)))).toEqual([early.id, onTime.id, later.id])
        expect(yield* repo.due(at(10))).toEqual([early])
        yield* repo.transition(early.id, ["scheduled"], "sending")
        expect(sortedIds(yield* repo.due(at(1000)))).toEqual([onTime.id, later.id])
      })))

    it.effect("adds to the engagement counters, stamping when statistics were calculated", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const saved = yield* campaign({ sentToNumberOfSubscribers: 10, openCount: 4, uniqueOpenCount: 2 })
        const other = yield* campaign()

        yield* repo.addCounters(saved.id, { openCount: 1, uniqueOpenCount: 1, clickCount: 3 }, at(5))
        const once = yield* found(saved.id)
        expect(once).toMatchObject({
          sentToNumberOfSubscribers: 10,
          openCount: 5,
          uniqueOpenCount: 3,
          clickCount: 3,
          uniqueClickCount: 0,
          unsubscribeCount: 0,
          bounceCount: 0
        })
        expect(once.statisticsCalculatedAt).toEqual(at(5))

        yield* repo.addCounters(saved.id, { clickCount: 2, uniqueClickCount: 1, unsubscribeCount: 1, bounceCount: 2 }, at(6))
        const twice = yield* found(saved.id)
        expect(twice).toMatchObject({
          openCount: 5,
          uniqueOpenCount: 3,
          clickCount: 5,
          uniqueClickCount: 1,
          unsubscribeCount: 1,
          bounceCount: 2
        })
        expect(twice.statisticsCalculatedAt).toEqual(at(6))
        expect(twice.updatedAt).toEqual(saved.updatedAt)
        expect(yield* found(other.id)).toEqual(other)
        yield* repo.addCounters(999 as CampaignId, { openCount: 1 }, at(7))
      })))

    it.effect("adds mails that went out to sent_to_number_of_subscribers, touching nothing else", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const saved = yield* campaign({ status: "sending", sentToNumberOfSubscribers: 3 })
        const other = yield* campaign()
        yield* repo.addSent(saved.id, 40)
        yield* repo.addSent(saved.id, 0)
        yield* repo.addSent(saved.id, 2)
        expect(yield* found(saved.id)).toEqual({ ...saved, sentToNumberOfSubscribers: 45 })
        expect(yield* found(other.id)).toEqual(other)
        yield* repo.addSent(999 as CampaignId, 1)
      })))

    it.effect("saves audience progress: the cursor never moves back and the frozen time is set once", () =>
      run(Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const saved = yield* campaign({ status: "sending" })
        const other = yield* campaign({ status: "sending" })

        yield* repo.saveAudienceProgress(saved.id, 10, null)
        expect(yield* found(saved.id)).toMatchObject({ audienceCursor: 10, audienceFrozenAt: null })
        yield* repo.saveAudienceProgress(saved.id, 5, null)
        expect((yield* found(saved.id)).audienceCursor).toBe(10)
        yield* repo.saveAudienceProgress(saved.id, 20, at(4))
        const frozen = yield* found(saved.id)
        expect(frozen.audienceCursor).toBe(20)
        expect(frozen.audienceFrozenAt).toEqual(at(4))
        yield* repo.saveAudienceProgress(saved.id, 20, at(9))
        yield* repo.saveAudienceProgress(saved.id, 25, null)
        const later = yield* found(saved.id)
        expect(later.audienceCursor).toBe(25)
        expect(later.audienceFrozenAt).toEqual(at(4))
        expect(yield* found(other.id)).toEqual(other)
      })))
  })
