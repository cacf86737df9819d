import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AutomationCollection, AutomationInput, AutomationRunCollection, TriggerInput } from "@mailroom/core"
import { Schema } from "effect"
import { AutomationNotTriggerableError, InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { AutomationResource, AutomationSubscriberResource } from "./AutomationResource.js"

const AutomationPath = Schema.Struct({ automation: Schema.String.annotations({ description: "The automation's uuid." }) })

/** What the trigger endpoint did. */
const TriggerResult = Schema.Struct({
  queued: Schema.Int.annotations({ description: "How many subscribers entered." }),
  skipped: Schema.Array(Schema.Struct({ uuid: Schema.String, reason: Schema.String }))
}).annotations({ identifier: "AutomationTriggerResult" })

/** /api/automations: flows built through the API (trigger, tree of actions), started, paused, triggered and watched. */
export class AutomationsGroup extends HttpApiGroup.make("automations")
  .add(
    HttpApiEndpoint.get("list", "/automations")
      .annotate(OpenApi.Summary, "List automations")
      .setUrlParams(collectionParams(AutomationCollection))
      .addSuccess(Collection(AutomationResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/automations")
      .annotate(OpenApi.Summary, "Create an automation")
      .setPayload(allErrors(AutomationInput))
      .addSuccess(Data(AutomationResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Creates a paused automation. Actions without a `uuid` get one; a bad action is a 422 naming its path (`actions.2.yes.0.automation_mail_uuid`).")
  )
  .add(
    HttpApiEndpoint.get("get", "/automations/:automation")
      .annotate(OpenApi.Summary, "Get an automation")
      .setPath(AutomationPath)
      .addSuccess(Data(AutomationResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/automations/:automation")
      .annotate(OpenApi.Summary, "Update an automation")
      .setPath(AutomationPath)
      .setPayload(allErrors(AutomationInput))
      .addSuccess(Data(AutomationResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Changes the fields given. Subscribers keep the action they are on (by uuid: send actions back with their uuids); those on a removed action are halted.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/automations/:automation")
      .annotate(OpenApi.Summary, "Delete an automation")
      .setPath(AutomationPath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("start", "/automations/:automation/start")
      .annotate(OpenApi.Summary, "Start an automation")
      .setPath(AutomationPath)
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Starts enrolling and running subscribers; 422 when it has no list, trigger or action.")
  )
  .add(
    HttpApiEndpoint.post("pause", "/automations/:automation/pause")
      .annotate(OpenApi.Summary, "Pause an automation")
      .setPath(AutomationPath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("trigger", "/automations/:automation/trigger")
      .annotate(OpenApi.Summary, "Trigger an automation for subscribers")
      .setPath(AutomationPath)
      .setPayload(allErrors(TriggerInput))
      .addSuccess(Data(TriggerResult))
      .addError(NotFoundError)
      .addError(AutomationNotTriggerableError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Enters the given subscribers (automations with a `webhook` trigger); says who was skipped and why.")
  )
  .add(
    HttpApiEndpoint.get("subscribers", "/automations/:automation/subscribers")
      .annotate(OpenApi.Summary, "List an automation's subscribers")
      .setPath(AutomationPath)
      .setUrlParams(collectionParams(AutomationRunCollection))
      .addSuccess(Collection(AutomationSubscriberResource))
      .addError(NotFoundError)
      .addError(InvalidQueryError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Automations: who enters (list, segment, trigger), a tree of actions, and where each subscriber is.")
{}
