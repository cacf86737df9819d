import { HttpApiBuilder } from "@effect/platform"
import { TokenCollection, Tokens } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { CurrentToken } from "../Authorization.js"
import { toCollection } from "../Collection.js"
import { queryParams } from "../handlers/queryParams.js"
import { toTokenResource } from "./TokenResource.js"

/** Handlers of /api/token and /api/tokens. */
export const TokensLive = HttpApiBuilder.group(Api, "tokens", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* Tokens
    return handlers
      .handle("current", () =>
        Effect.map(CurrentToken, (token) => ({ data: { uuid: token.uuid, name: token.name, abilities: token.abilities } })))
      .handle("list", () =>
        Effect.gen(function*() {
          const query = yield* queryParams(TokenCollection)
          return yield* toCollection(yield* tokens.page(query), query, toTokenResource)
        }))
      .handle("create", ({ payload }) =>
        Effect.map(tokens.create(payload.name, payload.abilities), ({ secret, token }) => ({
          data: { ...toTokenResource(token), token: secret }
        })))
      .handle("delete", ({ path }) => tokens.revoke(path.token))
  }))
