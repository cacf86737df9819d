import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { parseCollectionQuery, subscriberCollectionFor, SubscriberActions, Subscribers } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toSubscriberResource } from "../resources/SubscriberResource.js"
import { createdOrOk } from "./created.js"

const truthy = (value: string | undefined) => value !== undefined && ["1", "true", "on", "yes"].includes(value.toLowerCase())

/** Handlers of /api/email-lists/{emailList}/subscribers and the list + email state actions. */
export const SubscribersLive = HttpApiBuilder.group(Api, "subscribers", (handlers) =>
  Effect.gen(function*() {
    const subscribers = yield* Subscribers
    const actions = yield* SubscriberActions
    return handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const params = yield* HttpServerRequest.ParsedSearchParams
          const status = params["filter[status]"]
          const query = yield* parseCollectionQuery(subscriberCollectionFor(typeof status === "string" ? status : undefined), params)
          const { list, page } = yield* subscribers.list(path.emailList, query)
          return yield* toCollection(page, query, toSubscriberResource(list))
        }))
      .handle("create", ({ path, payload, urlParams }) =>
        Effect.gen(function*() {
          const { created, list, subscriber } = yield* subscribers.create(path.emailList, payload, truthy(urlParams.strict))
          return yield* createdOrOk(created, { data: toSubscriberResource(list)(subscriber) })
        }))
      .handle("confirm", ({ path, payload }) => actions.performByEmail("confirm", path.emailList, payload.email))
      .handle("unsubscribe", ({ path, payload }) => actions.performByEmail("unsubscribe", path.emailList, payload.email))
      .handle("resubscribe", ({ path, payload }) => actions.performByEmail("resubscribe", path.emailList, payload.email))
      .handle("resendConfirmation", ({ path, payload }) =>
        actions.performByEmail("resendConfirmation", path.emailList, payload.email))
  }))
