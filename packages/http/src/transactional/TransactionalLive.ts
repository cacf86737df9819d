import { HttpApiBuilder } from "@effect/platform"
import {
  TransactionalMailCollection,
  TransactionalMails,
  TransactionalTemplateCollection,
  TransactionalTemplates
} from "@mailroom/core"
import { Effect, Option } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { queryParams } from "../handlers/queryParams.js"
import { toTransactionalMailResource } from "./TransactionalMailResource.js"
import { toTransactionalTemplateResource } from "./TransactionalTemplateResource.js"

/** Handlers of /api/transactional-mails. */
export const TransactionalLive = HttpApiBuilder.group(Api, "transactionalMails", (handlers) =>
  Effect.gen(function*() {
    const templates = yield* TransactionalTemplates
    const mails = yield* TransactionalMails
    return handlers
      .handle("listTemplates", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(TransactionalTemplateCollection)
          return yield* toCollection(yield* templates.list(query), query, toTransactionalTemplateResource)
        }))
      .handle("createTemplate", ({ payload }) => Effect.map(templates.create(payload), (t) => ({ data: toTransactionalTemplateResource(t) })))
      .handle("getTemplate", ({ path }) => Effect.map(templates.get(path.template), (t) => ({ data: toTransactionalTemplateResource(t) })))
      .handle("updateTemplate", ({ path, payload }) =>
        Effect.map(templates.update(path.template, payload), (t) => ({ data: toTransactionalTemplateResource(t) })))
      .handle("deleteTemplate", ({ path }) => templates.remove(path.template))
      .handle("send", ({ payload }) =>
        Effect.map(mails.send(payload), Option.match({ onNone: () => undefined, onSome: (uuid) => ({ uuid }) })))
      .handle("render", ({ payload }) => Effect.map(mails.render(payload), (data) => ({ data })))
      .handle("listMails", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(TransactionalMailCollection)
          return yield* toCollection(yield* mails.list(query), query, toTransactionalMailResource)
        }))
      .handle("getMail", ({ path }) => Effect.map(mails.get(path.mail), (m) => ({ data: toTransactionalMailResource(m) })))
      .handle("resend", ({ path }) => mails.resend(path.mail))
  }))
