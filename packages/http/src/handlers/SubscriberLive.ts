import { HttpApiBuilder } from "@effect/platform"
import { type ListedSubscriber, SubscriberActions, Subscribers } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toSubscriberResource } from "../resources/SubscriberResource.js"

const render = ({ list, subscriber }: ListedSubscriber) => ({ data: toSubscriberResource(list)(subscriber) })

/** Handlers of /api/subscribers/{subscriber}. */
export const SubscriberLive = HttpApiBuilder.group(Api, "subscriber", (handlers) =>
  Effect.gen(function*() {
    const subscribers = yield* Subscribers
    const actions = yield* SubscriberActions
    return handlers
      .handle("get", ({ path }) => Effect.map(subscribers.get(path.subscriber), render))
      .handle("update", ({ path, payload }) => Effect.map(subscribers.update(path.subscriber, payload), render))
      .handle("patch", ({ path, payload }) => Effect.map(subscribers.update(path.subscriber, payload), render))
      .handle("delete", ({ path }) => subscribers.remove(path.subscriber))
      .handle("confirm", ({ path }) => actions.perform("confirm", path.subscriber))
      .handle("unsubscribe", ({ path }) => actions.perform("unsubscribe", path.subscriber))
      .handle("resubscribe", ({ path }) => actions.perform("resubscribe", path.subscriber))
      .handle("resendConfirmation", ({ path }) => actions.perform("resendConfirmation", path.subscriber))
      .handle("addTags", ({ path, payload }) => Effect.map(subscribers.changeTags(path.subscriber, payload.tags, "add"), render))
      .handle("removeTags", ({ path, payload }) =>
        Effect.map(subscribers.changeTags(path.subscriber, payload.tags, "remove"), render))
  }))
