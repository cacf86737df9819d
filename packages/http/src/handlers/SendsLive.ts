import { HttpApiBuilder } from "@effect/platform"
import { SendCollection, Sends } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toSendResource } from "../resources/SendResource.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/sends. */
export const SendsLive = HttpApiBuilder.group(Api, "sends", (handlers) =>
  Effect.map(Sends, (sends) =>
    handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(SendCollection)
          return yield* toCollection(yield* sends.list(query), query, toSendResource)
        }))
      .handle("get", ({ path }) => Effect.map(sends.get(path.send), (send) => ({ data: toSendResource(send) })))
      .handle("delete", ({ path }) => sends.remove(path.send))))
