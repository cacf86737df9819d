import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SuppressionCollection, SuppressionInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { SuppressionResource } from "../resources/SuppressionResource.js"
import { operationDocs } from "../operationDocs.js"

const SuppressionPath = Schema.Struct({
  suppression: Schema.String.annotations({ description: "The suppression's uuid, or the suppressed address." })
})

/** /api/suppressions */
export class SuppressionsGroup extends HttpApiGroup.make("suppressions")
  .add(
    HttpApiEndpoint.get("list", "/suppressions")
      .annotate(OpenApi.Summary, "List suppressions")
      .setUrlParams(collectionParams(SuppressionCollection))
      .addSuccess(Collection(SuppressionResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/suppressions")
      .annotate(OpenApi.Summary, "Suppress an address")
      .setPayload(allErrors(SuppressionInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { email: "bounced@example.com" }, existing: "The address was suppressed already." }))
      .addSuccess(Data(SuppressionResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "201 with the new record; 200 with the existing one when already suppressed.")
  )
  .add(
    HttpApiEndpoint.get("get", "/suppressions/:suppression")
      .annotate(OpenApi.Summary, "Get a suppression")
      .setPath(SuppressionPath)
      .addSuccess(Data(SuppressionResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/suppressions/:suppression")
      .annotate(OpenApi.Summary, "Delete a suppression")
      .setPath(SuppressionPath)
      .addError(NotFoundError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Addresses that are never mailed, whatever list they are on.")
{}
