import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ImportRowErrorCollection, SubscriberImportAppend, SubscriberImportCollection, SubscriberImportInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, InvalidStateError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { ImportRowErrorResource, SubscriberImportResource } from "../resources/SubscriberImportResource.js"
import { operationDocs } from "../operationDocs.js"

const ImportPath = Schema.Struct({
  import: Schema.String.annotations({ description: "The import's integer id (its uuid works too)." })
})

/** /api/subscriber-imports: bulk imports of subscribers from CSV text. */
export class SubscriberImportsGroup extends HttpApiGroup.make("subscriberImports")
  .add(
    HttpApiEndpoint.get("list", "/subscriber-imports")
      .annotate(OpenApi.Summary, "List subscriber imports")
      .setUrlParams(collectionParams(SubscriberImportCollection))
      .addSuccess(Collection(SubscriberImportResource))
      .addError(InvalidQueryError)
      .annotate(OpenApi.Description, "The imports, newest first; `subscribers_csv` is always null here (GET one import to read a draft's CSV).")
  )
  .add(
    HttpApiEndpoint.post("create", "/subscriber-imports")
      .annotate(OpenApi.Summary, "Create a subscriber import")
      .setPayload(allErrors(SubscriberImportInput))
      .annotate(OpenApi.Transform, operationDocs({
        example: {
          subscribers_csv: "email,first_name\nada@example.com,Ada\n",
          email_list_id: 1,
          subscribe_unsubscribed: false,
          unsubscribe_others: false
        }
      }))
      .addSuccess(Data(SubscriberImportResource))
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Creates a draft. The CSV may arrive in several parts: create with the first, then append.")
  )
  .add(
    HttpApiEndpoint.get("get", "/subscriber-imports/:import")
      .annotate(OpenApi.Summary, "Get a subscriber import")
      .setPath(ImportPath)
      .addSuccess(Data(SubscriberImportResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/subscriber-imports/:import")
      .annotate(OpenApi.Summary, "Update a draft import")
      .setPath(ImportPath)
      .setPayload(allErrors(SubscriberImportInput))
      .addSuccess(Data(SubscriberImportResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .addError(InvalidStateError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/subscriber-imports/:import")
      .annotate(OpenApi.Summary, "Delete a subscriber import")
      .setPath(ImportPath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("append", "/subscriber-imports/:import/append")
      .annotate(OpenApi.Summary, "Append CSV to a draft import")
      .setPath(ImportPath)
      .setPayload(allErrors(SubscriberImportAppend))
      .addSuccess(Data(SubscriberImportResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .addError(InvalidStateError)
  )
  .add(
    HttpApiEndpoint.post("start", "/subscriber-imports/:import/start")
      .annotate(OpenApi.Summary, "Start a subscriber import")
      .setPath(ImportPath)
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .addError(InvalidStateError)
      .annotate(OpenApi.Description, "Starts a draft: status pending, then importing, then completed (or failed).")
  )
  .add(
    HttpApiEndpoint.get("errors", "/subscriber-imports/:import/errors")
      .annotate(OpenApi.Summary, "List an import's refused rows")
      .setPath(ImportPath)
      .setUrlParams(collectionParams(ImportRowErrorCollection))
      .addSuccess(Collection(ImportRowErrorResource))
      .addError(NotFoundError)
      .addError(InvalidQueryError)
      .annotate(OpenApi.Description, "The rows the import refused so far, with their line and the reason.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "CSV imports into one list. A request body is at most 10 MiB: send a larger file in several append calls."
  )
{}
