import { HttpServerRequest } from "@effect/platform"
import { type CollectionSpec, parseCollectionQuery } from "@mailroom/core"
import { Effect } from "effect"

/** Parses the request's raw query string against a collection spec (400 for unknown sort/filter/include keys). */
export const queryParams = <S extends string, F extends string, I extends string>(spec: CollectionSpec<S, F, I>) =>
  Effect.flatMap(HttpServerRequest.ParsedSearchParams, (params) => parseCollectionQuery(spec, params))
