import { HttpApiBuilder } from "@effect/platform"
import { CampaignActions, CampaignCollection, Campaigns, type ListedCampaign } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toCampaignResource } from "../resources/CampaignResource.js"
import { queryParams } from "./queryParams.js"

const render = ({ campaign, ...refs }: ListedCampaign) => toCampaignResource(campaign, refs)

/** Handlers of /api/campaigns. */
export const CampaignsLive = HttpApiBuilder.group(Api, "campaigns", (handlers) =>
  Effect.gen(function*() {
    const campaigns = yield* Campaigns
    const actions = yield* CampaignActions
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(CampaignCollection)
          return yield* toCollection(yield* campaigns.list(query), query, render)
        }))
      .handle("create", ({ payload }) => Effect.map(campaigns.create(payload), (view) => ({ data: render(view) })))
      .handle("get", ({ path }) => Effect.map(campaigns.get(path.campaign), (view) => ({ data: render(view) })))
      .handle("update", ({ path, payload }) =>
        Effect.map(campaigns.update(path.campaign, payload), (view) => ({ data: render(view) })))
      .handle("delete", ({ path }) => campaigns.remove(path.campaign))
      .handle("sendTest", ({ path, payload }) => actions.sendTest(path.campaign, payload.email))
      .handle("send", ({ path }) => actions.send(path.campaign))
      .handle("pause", ({ path }) => actions.pause(path.campaign))
      .handle("resume", ({ path }) => actions.resume(path.campaign))
  }))
