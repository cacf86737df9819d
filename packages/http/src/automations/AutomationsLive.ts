import { HttpApiBuilder } from "@effect/platform"
import { AutomationCollection, AutomationRunCollection, Automations } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { queryParams } from "../handlers/queryParams.js"
import { toAutomationResource, toAutomationSubscriberResource } from "./AutomationResource.js"

/** Handlers of /api/automations. */
export const AutomationsLive = HttpApiBuilder.group(Api, "automations", (handlers) =>
  Effect.gen(function*() {
    const automations = yield* Automations
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(AutomationCollection)
          return yield* toCollection(yield* automations.list(query), query, toAutomationResource)
        }))
      .handle("create", ({ payload }) => Effect.map(automations.create(payload), (a) => ({ data: toAutomationResource(a) })))
      .handle("get", ({ path }) => Effect.map(automations.get(path.automation), (a) => ({ data: toAutomationResource(a) })))
      .handle("update", ({ path, payload }) => Effect.map(automations.update(path.automation, payload), (a) => ({ data: toAutomationResource(a) })))
      .handle("delete", ({ path }) => automations.delete(path.automation))
      .handle("start", ({ path }) => automations.start(path.automation))
      .handle("pause", ({ path }) => automations.pause(path.automation))
      .handle("trigger", ({ path, payload }) => Effect.map(automations.trigger(path.automation, payload), (data) => ({ data })))
      .handle("subscribers", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(AutomationRunCollection)
          return yield* toCollection(yield* automations.subscribers(path.automation, query), query, toAutomationSubscriberResource)
        }))
  }))
