import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { TemplateCollection, TemplateInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { TemplateResource } from "../resources/TemplateResource.js"
import { operationDocs } from "../operationDocs.js"

const TemplatePath = Schema.Struct({
  template: Schema.String.annotations({ description: "The template's uuid (or integer id)." })
})

/** /api/templates */
export class TemplatesGroup extends HttpApiGroup.make("templates")
  .add(
    HttpApiEndpoint.get("list", "/templates")
      .annotate(OpenApi.Summary, "List templates")
      .setUrlParams(collectionParams(TemplateCollection))
      .addSuccess(Collection(TemplateResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/templates")
      .annotate(OpenApi.Summary, "Create a template")
      .setPayload(allErrors(TemplateInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { name: "Newsletter", html: "<html><body><h1>[[[title]]]</h1>[[[content]]]</body></html>" } }))
      .addSuccess(Data(TemplateResource), { status: 201 })
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.get("get", "/templates/:template")
      .annotate(OpenApi.Summary, "Get a template")
      .setPath(TemplatePath)
      .addSuccess(Data(TemplateResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/templates/:template")
      .annotate(OpenApi.Summary, "Update a template")
      .setPath(TemplatePath)
      .setPayload(allErrors(TemplateInput))
      .addSuccess(Data(TemplateResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.del("delete", "/templates/:template")
      .annotate(OpenApi.Summary, "Delete a template")
      .setPath(TemplatePath)
      .addError(NotFoundError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Reusable layouts; `[[[name]]]` placeholders declare the fields campaigns fill in.")
{}
