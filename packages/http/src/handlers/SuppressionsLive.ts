import { HttpApiBuilder } from "@effect/platform"
import { SuppressionCollection, Suppressions } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toSuppressionResource } from "../resources/SuppressionResource.js"
import { createdOrOk } from "./created.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/suppressions. */
export const SuppressionsLive = HttpApiBuilder.group(Api, "suppressions", (handlers) =>
  Effect.map(Suppressions, (suppressions) =>
    handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(SuppressionCollection)
          return yield* toCollection(yield* suppressions.list(query), query, toSuppressionResource)
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const { created, suppression } = yield* suppressions.create(payload)
          return yield* createdOrOk(created, { data: toSuppressionResource(suppression) })
        }))
      .handle("get", ({ path }) =>
        Effect.map(suppressions.get(path.suppression), (suppression) => ({ data: toSuppressionResource(suppression) })))
      .handle("delete", ({ path }) => suppressions.remove(path.suppression))))
