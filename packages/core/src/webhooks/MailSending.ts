import { Effect } from "effect"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { now } from "../usecases/now.js"

/**
 * Whether any campaign is sending (webhooks yield to mail), looked up at most once a second for all who ask: the
 * webhook dispatcher and sender share it, so an idle server makes one look-up a second, not one each.
 */
export class MailSending extends Effect.Service<MailSending>()("@mailroom/MailSending", {
  effect: Effect.gen(function*() {
    const campaigns = yield* CampaignRepository
    let last = { at: Number.NEGATIVE_INFINITY, sending: false }
    const sending: Effect.Effect<boolean> = Effect.gen(function*() {
      const at = (yield* now).getTime()
      if (at - last.at >= 1_000) last = { at, sending: (yield* campaigns.withStatus(["sending"])).length > 0 }
      return last.sending
    })
    return { sending } as const
  })
}) {}
