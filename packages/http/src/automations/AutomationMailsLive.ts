import { HttpApiBuilder } from "@effect/platform"
import {
  AutomationMailCollection,
  AutomationMails,
  BounceCollection,
  ClickCollection,
  formatTimestamp,
  OpenCollection,
  UnsubscribeCollection
} from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { toCollection } from "../Collection.js"
import { queryParams } from "../handlers/queryParams.js"
import { toBounceResource, toClickResource, toOpenResource } from "../resources/StatisticsResources.js"
import { toAutomationMailResource } from "./AutomationMailResource.js"

/** Handlers of /api/automation-mails. */
export const AutomationMailsLive = HttpApiBuilder.group(Api, "automationMails", (handlers) =>
  Effect.gen(function*() {
    const mails = yield* AutomationMails
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(AutomationMailCollection)
          return yield* toCollection(yield* mails.list(query), query, toAutomationMailResource)
        }))
      .handle("create", ({ payload }) => Effect.map(mails.create(payload), (m) => ({ data: toAutomationMailResource(m) })))
      .handle("get", ({ path }) => Effect.map(mails.get(path.automationMail), (m) => ({ data: toAutomationMailResource(m) })))
      .handle("update", ({ path, payload }) =>
        Effect.map(mails.update(path.automationMail, payload), (m) => ({ data: toAutomationMailResource(m) })))
      .handle("delete", ({ path }) => mails.remove(path.automationMail))
      .handle("sendTest", ({ path, payload }) => mails.sendTest(path.automationMail, payload.email))
      .handle("opens", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(OpenCollection)
          const { page } = yield* mails.opens(path.automationMail, query)
          return yield* toCollection(page, query, toOpenResource)
        }))
      .handle("clicks", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(ClickCollection)
          const { page } = yield* mails.clicks(path.automationMail, query)
          return yield* toCollection(page, query, toClickResource)
        }))
      .handle("unsubscribes", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(UnsubscribeCollection)
          const { mail, page } = yield* mails.unsubscribes(path.automationMail, query)
          return yield* toCollection(page, query, (row) => ({
            automation_mail_uuid: mail.uuid,
            subscriber_id: row.subscriberId,
            subscriber_uuid: row.subscriberUuid,
            subscriber_email: row.subscriberEmail,
            created_at: formatTimestamp(row.createdAt)
          }))
        }))
      .handle("bounces", ({ path }) =>
        Effect.gen(function*() {
          const query = yield* queryParams(BounceCollection)
          const { page } = yield* mails.bounces(path.automationMail, query)
          return yield* toCollection(page, query, toBounceResource)
        }))
  }))
