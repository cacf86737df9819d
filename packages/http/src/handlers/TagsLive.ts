import { HttpApiBuilder } from "@effect/platform"
import { TagCollection, Tags } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toTagResource } from "../resources/TagResource.js"
import { createdOrOk } from "./created.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/email-lists/{emailList}/tags. */
export const TagsLive = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.map(Tags, (tags) =>
    handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(TagCollection)
          const { list, page } = yield* tags.list(path.emailList, query)
          return yield* toCollection(page, query, toTagResource(list, query.includes.includes("emailList")))
        }))
      .handle("create", ({ path, payload }) =>
        Effect.gen(function*() {
          const { created, list, tag } = yield* tags.create(path.emailList, payload)
          return yield* createdOrOk(created, { data: toTagResource(list)(tag) })
        }))
      .handle("get", ({ path }) =>
        Effect.map(tags.get(path.emailList, path.tag), ({ list, tag }) => ({ data: toTagResource(list)(tag) })))
      .handle("update", ({ path, payload }) =>
        Effect.map(tags.update(path.emailList, path.tag, payload), ({ list, tag }) => ({ data: toTagResource(list)(tag) })))
      .handle("delete", ({ path }) => tags.remove(path.emailList, path.tag))))
