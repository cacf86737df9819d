import { HttpApiBuilder } from "@effect/platform"
import { EmailListCollection, EmailLists } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toEmailListResource } from "../resources/EmailListResource.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/email-lists. */
export const EmailListsLive = HttpApiBuilder.group(Api, "emailLists", (handlers) =>
  Effect.map(EmailLists, (lists) =>
    handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(EmailListCollection)
          return yield* toCollection(yield* lists.list(query), query, toEmailListResource)
        }))
      .handle("create", ({ payload }) => Effect.map(lists.create(payload), (list) => ({ data: toEmailListResource(list) })))
      .handle("get", ({ path }) => Effect.map(lists.get(path.emailList), (list) => ({ data: toEmailListResource(list) })))
      .handle("update", ({ path, payload }) =>
        Effect.map(lists.update(path.emailList, payload), (list) => ({ data: toEmailListResource(list) })))
      .handle("delete", ({ path }) => lists.remove(path.emailList))))
