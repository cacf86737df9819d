import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { type Ability, Tokens } from "@mailroom/core"
import { Effect, Layer, Redacted } from "effect"
import { Authorization } from "./Authorization.js"

/** The ability an operation needs: reads need `read`, campaign sends `send`, every other change `write`. */
export const requiredAbility = (method: string, routePath: string): Ability =>
  method === "GET" || method === "HEAD"
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
          yield* tokens.authorize(token, requiredAbility(request.method, route.path))
          return token
        })
    }))
)
