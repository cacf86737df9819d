/**
 * Mails sent before links were signed per purpose carry one signature per send; after the upgrade those links keep
 * doing what they did, while mails sent since accept only their purpose's signature.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  CampaignLinkRepository,
  CampaignRepository,
  EmailListRepository,
  type EmailListId,
  Mailer,
  Mailroom,
  SendRepository,
  SettingsRepository,
  SubscriberRepository,
  Tracking,
  UrlSigner
} from "@mailroom/core"
import { MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer } from "effect"
import { aCampaign } from "../src/testing/suite/campaignFixtures.js"
import { aSubscriber, anEmailList } from "../src/testing/suite/fixtures.js"
import { noCsv } from "./noCsv.js"

const UPGRADE = new Date("2026-06-01T00:00:00.000Z")

const upgraded = Layer.effectDiscard(Effect.flatMap(SettingsRepository, (s) => s.getOrInit("url-purposes-since", UPGRADE.toISOString())))
  .pipe(Layer.provideMerge(MemoryStorage))
const noMail = Layer.succeed(Mailer, Mailer.of({ send: () => Effect.void }))
const layer = Mailroom.pipe(Layer.provideMerge(upgraded), Layer.provide(noMail), Layer.provide(noCsv))

/** A sent mail to `email`, recorded as sent at `sentAt`; its send uuid and the id of its one tracked link. */
const mailSentAt = (email: string, sentAt: Date) =>
  Effect.gen(function*() {
    const list = yield* Effect.flatMap(EmailListRepository, (r) => r.insert(anEmailList()))
    yield* Effect.flatMap(SubscriberRepository, (r) => r.insert(aSubscriber(list.id as EmailListId, { email })))
    const campaign = yield* Effect.flatMap(CampaignRepository, (r) => r.insert(aCampaign({ emailListId: list.id, status: "sending" })))
    const sends = yield* SendRepository
    yield* sends.freezeBatch({ campaignId: campaign.id, emailListId: list.id, segment: null, afterSubscriberId: 0, limit: 10, at: sentAt })
    const [send] = yield* sends.claim({ campaignId: campaign.id, now: sentAt, leaseUntil: new Date(sentAt.getTime() + 60_000), limit: 10, owner: "t" })
    yield* sends.record([{ _tag: "Sent", id: send!.id, transportMessageId: null }], sentAt)
    const [link] = yield* Effect.flatMap(CampaignLinkRepository, (r) => r.ensure(campaign.id, ["https://example.com/read"]))
    return { uuid: send!.uuid as string, linkId: link!.id as number }
  })

const outcome = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.match(effect, { onFailure: (e) => (e as { _tag?: string })._tag ?? "failed", onSuccess: () => "ok" })

describe("links of mails sent before purpose signatures", () => {
  it.effect("keep working with their one old signature; later mails need each purpose's own", () =>
    Effect.gen(function*() {
      const tracking = yield* Tracking
      const signer = yield* UrlSigner
      const old = yield* mailSentAt("old@example.com", new Date(UPGRADE.getTime() - 86_400_000))
      const oldSignature = yield* signer.sign(old.uuid)
      expect(yield* outcome(tracking.open(old.uuid, oldSignature))).toBe("ok")
      expect(yield* tracking.click(old.uuid, String(old.linkId), oldSignature)).toBe("https://example.com/read")
      expect(yield* outcome(tracking.unsubscribeInfo(old.uuid, oldSignature))).toBe("ok")

      const recent = yield* mailSentAt("new@example.com", new Date(UPGRADE.getTime() + 1_000))
      const single = yield* signer.sign(recent.uuid)
      expect(yield* outcome(tracking.open(recent.uuid, single))).toBe("NotFound")
      expect(yield* outcome(tracking.click(recent.uuid, String(recent.linkId), single))).toBe("NotFound")
      expect(yield* outcome(tracking.unsubscribeInfo(recent.uuid, single))).toBe("NotFound")
      const signatures = yield* signer.signSend(recent.uuid)
      const token = yield* signer.linkToken(recent.linkId)
      expect(yield* outcome(tracking.open(recent.uuid, signatures.open))).toBe("ok")
      expect(yield* tracking.click(recent.uuid, token, signatures.click)).toBe("https://example.com/read")
      expect(yield* outcome(tracking.click(recent.uuid, String(recent.linkId), signatures.click))).toBe("NotFound")
      expect(yield* outcome(tracking.unsubscribeInfo(recent.uuid, signatures.unsubscribe))).toBe("ok")
      expect(yield* outcome(tracking.unsubscribeInfo(recent.uuid, signatures.open))).toBe("NotFound")
    }).pipe(Effect.provide(layer)))
})
