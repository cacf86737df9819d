import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { type Ability, Tokens } from "@mailroom/core"
import { Effect, Layer, Redacted } from "effect"
import { Authorization } from "./Authorization.js"

/**
 * The ability an operation needs: none beyond a valid token for `/api/token` (who am I), `all` for token management
 * (`/api/tokens…`: anything less could mint itself more), `read` for other reads, `send` for campaign sends, every
 * other change `write`.
 */
export const requiredAbility = (method: string, routePath: string): Ability | null =>
  routePath === "/api/token"
    ? null
    : /^\/api\/tokens(\/|$)/.test(routePath)
    ? "all"
    : method === "GET" || method === "HEAD"
    ? "read"
    : /\/(send|send-test)$/.test(routePath)
    ? "send"
    : "write"

/** Authorization backed by the Tokens use case. */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.map(Tokens, (tokens) =>
    Authorization.of({
      bearer: (secret) =>
        Effect.gen(function*() {
          const token = yield* tokens.authenticate(Redacted.value(secret).trim())
          const request = yield* HttpServerRequest.HttpServerRequest
          const { route } = yield* HttpRouter.RouteContext
          const ability = requiredAbility(request.method, route.path)
          if (ability !== null) yield* tokens.authorize(token, ability)
          return token
        })
    }))
)
