import { createHash, timingSafeEqual } from "node:crypto"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Tokens } from "@mailroom/core"
import { Duration, Effect, Option, Redacted } from "effect"
import { landingPage } from "./landingPage.js"
import { Operations } from "./Operations.js"

const json = (status: number, body: object) =>
  HttpServerResponse.unsafeJson(body, { status, headers: { "cache-control": "no-store" } })

/** How long /readyz waits for its checks before it answers unavailable. */
const READINESS_TIMEOUT = Duration.seconds(5)

const digest = (text: string) => createHash("sha256").update(text).digest()

/** The bearer token of a request ("" without one). */
const bearer = (request: HttpServerRequest.HttpServerRequest): string => {
  const header = request.headers["authorization"] ?? ""
  return /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, "").trim() : ""
}

/**
 * The routes outside /api that operators use, without a token unless said: `/` (a page naming the server, its version
 * and its documentation), `/healthz` (200 while the process runs), `/readyz` (200 when the readiness checks pass,
 * else 503 with each check's state) and `/metrics` (Prometheus; `Authorization: Bearer <METRICS_TOKEN>` when one is
 * configured, else any API token with the read ability).
 */
export const OperationsRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const operations = yield* Operations
    const tokens = yield* Tokens

    /** Whether the request may read /metrics: 401 or 403 `{message}` when not. */
    const authorizeMetrics = (request: HttpServerRequest.HttpServerRequest) => {
      const secret = bearer(request)
      if (Option.isSome(operations.metricsToken)) {
        const expected = Redacted.value(operations.metricsToken.value)
        return secret !== "" && timingSafeEqual(digest(secret), digest(expected))
          ? Effect.succeed(null)
          : Effect.succeed(json(401, { message: "Unauthorized." }))
      }
      return tokens.authenticate(secret).pipe(
        Effect.flatMap((token) => tokens.authorize(token, "read")),
        Effect.as(null),
        Effect.catchTags({
          Unauthenticated: (error) => Effect.succeed(json(401, { message: error.message })),
          Forbidden: (error) => Effect.succeed(json(403, { message: error.message }))
        })
      )
    }

    yield* router.get("/", Effect.succeed(landingPage(operations.version)))
    yield* router.get("/healthz", Effect.succeed(json(200, { status: "ok" })))
    yield* router.get(
      "/readyz",
      operations.readiness.pipe(
        Effect.timeoutTo({
          duration: READINESS_TIMEOUT,
          onSuccess: (readiness) => readiness,
          onTimeout: () => ({ ready: false, checks: { readiness: "timed out" } })
        }),
        Effect.map(({ checks, ready }) => json(ready ? 200 : 503, { status: ready ? "ok" : "unavailable", checks }))
      )
    )
    yield* router.get(
      "/metrics",
      Effect.gen(function*() {
        if (Option.isNone(operations.metrics)) return json(404, { message: "Not found." })
        const refused = yield* authorizeMetrics(yield* HttpServerRequest.HttpServerRequest)
        if (refused !== null) return refused
        const { body, contentType } = yield* operations.metrics.value
        return HttpServerResponse.text(body, { contentType, headers: { "cache-control": "no-store" } })
      })
    )
  })
)
