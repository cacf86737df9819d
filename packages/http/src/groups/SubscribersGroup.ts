import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SubscriberCollection, SubscriberEmailInput, SubscriberInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, InvalidStateError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { SubscriberResource } from "../resources/SubscriberResource.js"
import { operationDocs } from "../operationDocs.js"

const ListPath = Schema.Struct({ emailList: Schema.String.annotations({ description: "The list's uuid." }) })

const byEmail = <const Name extends string>(name: Name, path: string, summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/email-lists/:emailList/${path}`)
    .annotate(OpenApi.Summary, summary)
    .setPath(ListPath)
    .setPayload(allErrors(SubscriberEmailInput))
    .addError(NotFoundError)
    .addError(ValidationFailedError)
    .addError(InvalidStateError)
    .annotate(OpenApi.Description, `${description} 404 when the list has no subscriber with that address.`)

/** /api/email-lists/{emailList}/subscribers and the list + email state actions. */
export class SubscribersGroup extends HttpApiGroup.make("subscribers")
  .add(
    HttpApiEndpoint.get("list", "/email-lists/:emailList/subscribers")
      .annotate(OpenApi.Summary, "List a list's subscribers")
      .setPath(ListPath)
      .setUrlParams(collectionParams(SubscriberCollection))
      .addSuccess(Collection(SubscriberResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
      .annotate(
        OpenApi.Description,
        "filter[tags]: comma-separated tag names or uuids, combined by filter[tagType] (any or all). " +
          "Default sort -created_at (-unsubscribed_at with filter[status]=unsubscribed)."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/email-lists/:emailList/subscribers")
      .annotate(OpenApi.Summary, "Subscribe an address")
      .setPath(ListPath)
      .setUrlParams(Schema.Struct({ strict: Schema.optional(Schema.String) }))
      .setPayload(allErrors(SubscriberInput))
      .annotate(OpenApi.Transform, operationDocs({
        example: { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace", tags: ["customer"] },
        existing: "The address was on the list: updated."
      }))
      .addSuccess(Data(SubscriberResource), { status: 201 })
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(
        OpenApi.Description,
        "201 with a new subscriber (unconfirmed with a confirmation mail when the list requires confirmation and " +
          "skip_confirmation is not set); 200 when the address was on the list and has been updated; with strict, " +
          "422 when it is already subscribed."
      )
  )
  .add(byEmail("confirm", "confirm", "Confirm a subscriber by address", "Confirms an unconfirmed subscriber."))
  .add(byEmail("unsubscribe", "unsubscribe", "Unsubscribe an address", "Unsubscribes a subscribed subscriber."))
  .add(byEmail(
    "resubscribe",
    "resubscribe",
    "Resubscribe an address",
    "Resubscribes an unsubscribed subscriber (unconfirmed if never confirmed)."
  ))
  .add(byEmail(
    "resendConfirmation",
    "resend-confirmation",
    "Resend the confirmation mail to an address",
    "Sends the confirmation mail again to an unconfirmed subscriber."
  ))
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "The people on a list.")
{}
