import { HttpApiBuilder } from "@effect/platform"
import { TemplateCollection, Templates } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { toTemplateResource } from "../resources/TemplateResource.js"
import { queryParams } from "./queryParams.js"

/** Handlers of /api/templates. */
export const TemplatesLive = HttpApiBuilder.group(Api, "templates", (handlers) =>
  Effect.map(Templates, (templates) =>
    handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(TemplateCollection)
          return yield* toCollection(yield* templates.list(query), query, toTemplateResource)
        }))
      .handle("create", ({ payload }) =>
        Effect.map(templates.create(payload), (template) => ({ data: toTemplateResource(template) })))
      .handle("get", ({ path }) =>
        Effect.map(templates.get(path.template), (template) => ({ data: toTemplateResource(template) })))
      .handle("update", ({ path, payload }) =>
        Effect.map(templates.update(path.template, payload), (template) => ({ data: toTemplateResource(template) })))
      .handle("delete", ({ path }) => templates.remove(path.template))))
