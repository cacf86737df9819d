import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** The endpoint's declared 201 body when `created`, else the same body with 200 (an existing record was returned). */
export const createdOrOk = <A extends object>(created: boolean, body: A) =>
  created ? Effect.succeed(body) : Effect.orDie(HttpServerResponse.json(body, { status: 200 }))
