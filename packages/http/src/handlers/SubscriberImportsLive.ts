import { HttpApiBuilder } from "@effect/platform"
import { ImportRowErrorCollection, type SubscriberImport, SubscriberImportCollection, SubscriberImports } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toImportRowErrorResource, toSubscriberImportResource } from "../resources/SubscriberImportResource.js"
import { subscriberImportResponse } from "../resources/SubscriberImportResponse.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/subscriber-imports. */
export const SubscriberImportsLive = HttpApiBuilder.group(Api, "subscriberImports", (handlers) =>
  Effect.map(SubscriberImports, (imports) => {
    const one = (subscriberImport: SubscriberImport) =>
      Effect.succeed(subscriberImportResponse(subscriberImport, imports.csvChunks(subscriberImport)))
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(SubscriberImportCollection)
          const page = yield* imports.list(query)
          // the index never carries CSV text (a draft may hold hundreds of MB): one import's GET streams it
          return yield* toCollection(page, query, (item) => toSubscriberImportResource(item, null))
        }))
      .handle("create", ({ payload }) => Effect.flatMap(imports.create(payload), one))
      .handle("get", ({ path }) => Effect.flatMap(imports.get(path.import), one))
      .handle("update", ({ path, payload }) => Effect.flatMap(imports.update(path.import, payload), one))
      .handle("delete", ({ path }) => imports.remove(path.import))
      .handle("append", ({ path, payload }) => Effect.flatMap(imports.append(path.import, payload), one))
      .handle("start", ({ path }) => imports.start(path.import))
      .handle("errors", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(ImportRowErrorCollection)
          return yield* toCollection(yield* imports.errors(path.import, query), query, toImportRowErrorResource)
        }))
  }))
