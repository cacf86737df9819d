import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SegmentCollection, SegmentInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { SegmentResource } from "../resources/SegmentResource.js"

const ListPath = Schema.Struct({ emailList: Schema.String.annotations({ description: "The list's uuid." }) })
const SegmentPath = Schema.Struct({
  emailList: Schema.String.annotations({ description: "The list's uuid." }),
  segment: Schema.String.annotations({ description: "The segment's uuid (a segment of another list is not found)." })
})

/** /api/email-lists/{emailList}/segments */
export class SegmentsGroup extends HttpApiGroup.make("segments")
  .add(
    HttpApiEndpoint.get("list", "/email-lists/:emailList/segments")
      .annotate(OpenApi.Summary, "List a list's segments")
      .setPath(ListPath)
      .setUrlParams(collectionParams(SegmentCollection))
      .addSuccess(Collection(SegmentResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("create", "/email-lists/:emailList/segments")
      .annotate(OpenApi.Summary, "Create a segment")
      .setPath(ListPath)
      .setPayload(allErrors(SegmentInput))
      .addSuccess(Data(SegmentResource), { status: 201 })
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Creates a segment; tag names must be tags of the list.")
  )
  .add(
    HttpApiEndpoint.get("get", "/email-lists/:emailList/segments/:segment")
      .annotate(OpenApi.Summary, "Get a segment")
      .setPath(SegmentPath)
      .addSuccess(Data(SegmentResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/email-lists/:emailList/segments/:segment")
      .annotate(OpenApi.Summary, "Update a segment")
      .setPath(SegmentPath)
      .setPayload(allErrors(SegmentInput))
      .addSuccess(Data(SegmentResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/email-lists/:emailList/segments/:segment")
      .annotate(OpenApi.Summary, "Delete a segment")
      .setPath(SegmentPath)
      .addError(NotFoundError)
      .annotate(OpenApi.Description, "Deletes the segment.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Tag-based parts of a list: subscribed members with (or without) given tags.")
{}
