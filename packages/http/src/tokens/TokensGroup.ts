import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { TokenCollection, TokenInput } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { operationDocs } from "../operationDocs.js"
import { CreatedTokenResource, CurrentTokenResource, TokenResource } from "./TokenResource.js"

const TokenPath = Schema.Struct({ token: Schema.String.annotations({ description: "The token's uuid." }) })

/** /api/token (the current token) and /api/tokens (token management, `all` ability only). */
export class TokensGroup extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.get("current", "/token")
      .annotate(OpenApi.Summary, "Get the current token")
      .addSuccess(Data(CurrentTokenResource))
      .annotate(OpenApi.Description, "The token of the request, whatever its abilities (who am I).")
  )
  .add(
    HttpApiEndpoint.get("list", "/tokens")
      .annotate(OpenApi.Summary, "List API tokens")
      .setUrlParams(collectionParams(TokenCollection))
      .addSuccess(Collection(TokenResource))
      .addError(InvalidQueryError)
      .annotate(OpenApi.Description, "Needs the `all` ability. Secrets are never shown.")
  )
  .add(
    HttpApiEndpoint.post("create", "/tokens")
      .annotate(OpenApi.Summary, "Create an API token")
      .setPayload(allErrors(TokenInput))
      .annotate(OpenApi.Transform, operationDocs({ example: { name: "dashboards", abilities: ["read"] } }))
      .addSuccess(Data(CreatedTokenResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Needs the `all` ability. The answer shows the secret (`token`) once.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/tokens/:token")
      .annotate(OpenApi.Summary, "Revoke an API token")
      .setPath(TokenPath)
      .addError(NotFoundError)
      .annotate(OpenApi.Description, "Needs the `all` ability. A token may revoke itself; its next request answers 401.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "API tokens: who the current token is, and (with the `all` ability) managing tokens.")
{}
