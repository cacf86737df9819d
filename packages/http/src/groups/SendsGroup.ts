import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SendCollection } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { Collection, collectionParams, Data } from "../Collection.js"
import { SendResource } from "../resources/SendResource.js"

const SendPath = Schema.Struct({ send: Schema.String.annotations({ description: "The send's uuid." }) })

/** /api/sends: the per-recipient delivery log. */
export class SendsGroup extends HttpApiGroup.make("sends")
  .add(
    HttpApiEndpoint.get("list", "/sends")
      .annotate(OpenApi.Summary, "List sends")
      .setUrlParams(collectionParams(SendCollection))
      .addSuccess(Collection(SendResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.get("get", "/sends/:send")
      .annotate(OpenApi.Summary, "Get a send")
      .setPath(SendPath)
      .addSuccess(Data(SendResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/sends/:send")
      .annotate(OpenApi.Summary, "Delete a send")
      .setPath(SendPath)
      .addError(NotFoundError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "One row per mail of a campaign to a subscriber: sent, failed (with the reason) or pending.")
{}
