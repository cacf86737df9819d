import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { EmailListCollection, EmailListInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { EmailListResource } from "../resources/EmailListResource.js"
import { operationDocs } from "../operationDocs.js"

const EmailListPath = Schema.Struct({ emailList: Schema.String.annotations({ description: "The list's uuid." }) })

/** /api/email-lists */
export class EmailListsGroup extends HttpApiGroup.make("emailLists")
  .add(
    HttpApiEndpoint.get("list", "/email-lists")
      .annotate(OpenApi.Summary, "List email lists")
      .setUrlParams(collectionParams(EmailListCollection))
      .addSuccess(Collection(EmailListResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/email-lists")
      .annotate(OpenApi.Summary, "Create an email list")
      .setPayload(allErrors(EmailListInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { name: "Newsletter", default_from_email: "news@example.com", default_from_name: "Example News" } }))
      .addSuccess(Data(EmailListResource), { status: 201 })
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.get("get", "/email-lists/:emailList")
      .annotate(OpenApi.Summary, "Get an email list")
      .setPath(EmailListPath)
      .addSuccess(Data(EmailListResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/email-lists/:emailList")
      .annotate(OpenApi.Summary, "Update an email list")
      .setPath(EmailListPath)
      .setPayload(allErrors(EmailListInput))
      .addSuccess(Data(EmailListResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/email-lists/:emailList")
      .annotate(OpenApi.Summary, "Delete an email list")
      .setPath(EmailListPath)
      .addError(NotFoundError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Audiences with sender defaults; deleting a list deletes everything in it.")
{}
