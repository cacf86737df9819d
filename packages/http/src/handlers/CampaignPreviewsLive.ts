import { HttpApiBuilder } from "@effect/platform"
import { CampaignPreviews } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"

/** Handlers of the campaign previews. */
export const CampaignPreviewsLive = HttpApiBuilder.group(Api, "campaignPreviews", (handlers) =>
  Effect.gen(function*() {
    const previews = yield* CampaignPreviews
    return handlers
      .handle("preview", ({ payload }) => Effect.map(previews.preview(payload), (data) => ({ data })))
      .handle("previewSaved", ({ path, urlParams }) =>
        Effect.map(previews.previewSaved(path.campaign, urlParams.subscriber_uuid), (data) => ({ data })))
  }))
