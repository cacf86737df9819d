import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AutomationMailCollection,
  AutomationMailInput,
  BounceCollection,
  ClickCollection,
  OpenCollection,
  SendTestInput,
  UnsubscribeCollection
} from "@mailroom/core"
import { Schema } from "effect"
import { AutomationMailInUseError, InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { BounceResource, ClickResource, OpenResource } from "../resources/StatisticsResources.js"
import { AutomationMailResource, AutomationMailUnsubscribeResource } from "./AutomationMailResource.js"
import { operationDocs } from "../operationDocs.js"

const MailPath = Schema.Struct({ automationMail: Schema.String.annotations({ description: "The automation mail's uuid." }) })

/** /api/automation-mails: CRUD, test mails, and each mail's opens, clicks, unsubscribes and bounces. */
export class AutomationMailsGroup extends HttpApiGroup.make("automationMails")
  .add(
    HttpApiEndpoint.get("list", "/automation-mails")
      .annotate(OpenApi.Summary, "List automation mails")
      .setUrlParams(collectionParams(AutomationMailCollection))
      .addSuccess(Collection(AutomationMailResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/automation-mails")
      .annotate(OpenApi.Summary, "Create an automation mail")
      .setPayload(allErrors(AutomationMailInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { name: "Welcome", subject: "Welcome aboard", html: "<p>Hello {{ subscriber.first_name }}!</p>" } }))
      .addSuccess(Data(AutomationMailResource), { status: 201 })
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.get("get", "/automation-mails/:automationMail")
      .annotate(OpenApi.Summary, "Get an automation mail")
      .setPath(MailPath)
      .addSuccess(Data(AutomationMailResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/automation-mails/:automationMail")
      .annotate(OpenApi.Summary, "Replace an automation mail")
      .setPath(MailPath)
      .setPayload(allErrors(AutomationMailInput))
      .addSuccess(Data(AutomationMailResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Full replace; mails queued afterwards go out with the new content.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/automation-mails/:automationMail")
      .annotate(OpenApi.Summary, "Delete an automation mail")
      .setPath(MailPath)
      .addError(NotFoundError)
      .addError(AutomationMailInUseError)
      .annotate(OpenApi.Description, "Deletes the mail; 409 while a started automation has an action sending it.")
  )
  .add(
    HttpApiEndpoint.post("sendTest", "/automation-mails/:automationMail/send-test")
      .annotate(OpenApi.Summary, "Send a test of an automation mail")
      .setPath(MailPath)
      .setPayload(allErrors(SendTestInput))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Mails 1 to 10 comma-separated addresses a `[Test] ` copy; not counted.")
  )
  .add(
    HttpApiEndpoint.get("opens", "/automation-mails/:automationMail/opens")
      .annotate(OpenApi.Summary, "List an automation mail's opens")
      .setPath(MailPath)
      .setUrlParams(collectionParams(OpenCollection))
      .addSuccess(Collection(OpenResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("clicks", "/automation-mails/:automationMail/clicks")
      .annotate(OpenApi.Summary, "List an automation mail's clicked links")
      .setPath(MailPath)
      .setUrlParams(collectionParams(ClickCollection))
      .addSuccess(Collection(ClickResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("unsubscribes", "/automation-mails/:automationMail/unsubscribes")
      .annotate(OpenApi.Summary, "List an automation mail's unsubscribes")
      .setPath(MailPath)
      .setUrlParams(collectionParams(UnsubscribeCollection))
      .addSuccess(Collection(AutomationMailUnsubscribeResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("bounces", "/automation-mails/:automationMail/bounces")
      .annotate(OpenApi.Summary, "List an automation mail's bounces")
      .setPath(MailPath)
      .setUrlParams(collectionParams(BounceCollection))
      .addSuccess(Collection(BounceResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Mails that automations send to whoever reaches a \"send mail\" action: no list, status or schedule; statistics like a campaign's."
  )
{}
