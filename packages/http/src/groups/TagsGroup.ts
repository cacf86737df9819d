import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { TagCollection, TagInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { TagResource } from "../resources/TagResource.js"
import { operationDocs } from "../operationDocs.js"

const ListPath = Schema.Struct({ emailList: Schema.String.annotations({ description: "The list's uuid." }) })
const TagPath = Schema.Struct({
  emailList: Schema.String.annotations({ description: "The list's uuid." }),
  tag: Schema.String.annotations({ description: "The tag's uuid (a tag of another list is not found)." })
})

/** /api/email-lists/{emailList}/tags */
export class TagsGroup extends HttpApiGroup.make("tags")
  .add(
    HttpApiEndpoint.get("list", "/email-lists/:emailList/tags")
      .annotate(OpenApi.Summary, "List a list's tags")
      .setPath(ListPath)
      .setUrlParams(collectionParams(TagCollection))
      .addSuccess(Collection(TagResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("create", "/email-lists/:emailList/tags")
      .annotate(OpenApi.Summary, "Create a tag")
      .setPath(ListPath)
      .setPayload(allErrors(TagInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { name: "customer" }, existing: "The list has a tag of that name already." }))
      .addSuccess(Data(TagResource), { status: 201 })
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "201 with the new tag; 200 with the existing one when the list has a tag of that name.")
  )
  .add(
    HttpApiEndpoint.get("get", "/email-lists/:emailList/tags/:tag")
      .annotate(OpenApi.Summary, "Get a tag")
      .setPath(TagPath)
      .addSuccess(Data(TagResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/email-lists/:emailList/tags/:tag")
      .annotate(OpenApi.Summary, "Rename a tag")
      .setPath(TagPath)
      .setPayload(allErrors(TagInput))
      .addSuccess(Data(TagResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/email-lists/:emailList/tags/:tag")
      .annotate(OpenApi.Summary, "Delete a tag")
      .setPath(TagPath)
      .addError(NotFoundError)
      .annotate(OpenApi.Description, "Deletes the tag and detaches it from every subscriber and segment.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Labels on a list's subscribers.")
{}
