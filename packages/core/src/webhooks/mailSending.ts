import { Effect } from "effect"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { now } from "../usecases/now.js"

/** Makes a check of whether any campaign is sending, looked up at most once a second (webhooks yield to mail). */
export const makeMailSendingProbe = Effect.gen(function*() {
  const campaigns = yield* CampaignRepository
  let last = { at: Number.NEGATIVE_INFINITY, sending: false }
  return Effect.gen(function*() {
    const at = (yield* now).getTime()
    if (at - last.at >= 1_000) last = { at, sending: (yield* campaigns.withStatus(["sending"])).length > 0 }
    return last.sending
  })
})
