import { HttpApi, HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"

/** GET /docs: Swagger UI for the API, loaded and built on the first visit rather than at start-up. */
export const DocsRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const docs = yield* Effect.cached(
      Effect.promise(() => import("./swaggerRouter.js")).pipe(Effect.flatMap(({ swaggerRouter }) => swaggerRouter(api)))
    )
    yield* router.get("/docs", Effect.flatten(docs))
  })
)
