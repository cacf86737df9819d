import { HttpApi, HttpApiBuilder } from "@effect/platform"
import * as HttpApiSwagger from "@effect/platform/HttpApiSwagger"
import { Effect, Layer } from "effect"

/**
 * A router holding only Swagger UI's page for `api` at /docs. Imported on the first visit to /docs (see DocsRoute):
 * the page carries Swagger UI's 3.5 MB script, which an idle server should not hold.
 */
export const swaggerRouter = (api: HttpApi.Api["Type"]) =>
  HttpApiBuilder.Router.router.pipe(
    Effect.provide(HttpApiSwagger.layer({ path: "/docs" }).pipe(
      Layer.provideMerge(HttpApiBuilder.Router.Live),
      Layer.provide(Layer.succeed(HttpApi.Api, api))
    ))
  )
