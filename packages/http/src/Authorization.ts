import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import type { ApiToken } from "@mailroom/core"
import { Context, Schema } from "effect"
import { ForbiddenError, UnauthorizedError } from "./ApiErrors.js"

/** The API token of the current request. */
export class CurrentToken extends Context.Tag("@mailroom/http/CurrentToken")<CurrentToken, ApiToken>() {}

/** Bearer-token security on every /api group: 401 without a valid token, 403 without the needed ability. */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@mailroom/http/Authorization", {
  failure: Schema.Union(UnauthorizedError, ForbiddenError),
  provides: CurrentToken,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
