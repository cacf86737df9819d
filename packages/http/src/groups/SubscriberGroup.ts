import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SubscriberTagsInput, SubscriberUpdateInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidStateError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Data } from "../Collection.js"
import { SubscriberResource } from "../resources/SubscriberResource.js"

const SubscriberPath = Schema.Struct({
  subscriber: Schema.String.annotations({ description: "The subscriber's uuid." })
})

const action = <const Name extends string>(name: Name, path: string, summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/subscribers/:subscriber/${path}`)
    .annotate(OpenApi.Summary, summary)
    .setPath(SubscriberPath)
    .addError(NotFoundError)
    .addError(InvalidStateError)
    .annotate(OpenApi.Description, description)

/** /api/subscribers/{subscriber}: one subscriber, its status actions and its tags. */
export class SubscriberGroup extends HttpApiGroup.make("subscriber")
  .add(
    HttpApiEndpoint.get("get", "/subscribers/:subscriber")
      .annotate(OpenApi.Summary, "Get a subscriber")
      .setPath(SubscriberPath)
      .addSuccess(Data(SubscriberResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/subscribers/:subscriber")
      .annotate(OpenApi.Summary, "Update a subscriber")
      .setPath(SubscriberPath)
      .setPayload(allErrors(SubscriberUpdateInput))
      .addSuccess(Data(SubscriberResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Changes the fields present; tags replace the user tags, or are added with append_tags.")
  )
  .add(
    HttpApiEndpoint.patch("patch", "/subscribers/:subscriber")
      .annotate(OpenApi.Summary, "Update a subscriber (PATCH)")
      .setPath(SubscriberPath)
      .setPayload(allErrors(SubscriberUpdateInput))
      .addSuccess(Data(SubscriberResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Same as PUT.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/subscribers/:subscriber")
      .annotate(OpenApi.Summary, "Delete a subscriber")
      .setPath(SubscriberPath)
      .addError(NotFoundError)
      .annotate(OpenApi.Description, "Removes the subscriber entirely; the address can subscribe again.")
  )
  .add(action("confirm", "confirm", "Confirm a subscriber", "Confirms an unconfirmed subscriber; 422 otherwise."))
  .add(action("unsubscribe", "unsubscribe", "Unsubscribe a subscriber", "Unsubscribes a subscribed subscriber; 422 otherwise."))
  .add(action("resubscribe", "resubscribe", "Resubscribe a subscriber", "Resubscribes an unsubscribed subscriber; 422 otherwise."))
  .add(action(
    "resendConfirmation",
    "resend-confirmation",
    "Resend a subscriber's confirmation mail",
    "Sends the confirmation mail again; 422 unless unconfirmed."
  ))
  .add(
    HttpApiEndpoint.post("addTags", "/subscribers/:subscriber/tags")
      .annotate(OpenApi.Summary, "Add tags to a subscriber")
      .setPath(SubscriberPath)
      .setPayload(allErrors(SubscriberTagsInput))
      .addSuccess(Data(SubscriberResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Adds tags by name, creating the list's tags as needed.")
  )
  .add(
    HttpApiEndpoint.del("removeTags", "/subscribers/:subscriber/tags")
      .annotate(OpenApi.Summary, "Remove tags from a subscriber")
      .setPath(SubscriberPath)
      .setPayload(allErrors(SubscriberTagsInput))
      .addSuccess(Data(SubscriberResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Removes tags by name (case-insensitive); unknown names are ignored.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "One subscriber by uuid: read, change, delete, its status actions and its tags.")
{}
