import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Option, Tracer } from "effect"
import { Operations } from "./Operations.js"

/** The route label of a request no route matched (unknown paths stay out of the metrics' labels). */
export const UNMATCHED_ROUTE = "unmatched"

/**
 * Times every request and tells `Operations.observeRequest` its method, matched route template (`/api/campaigns/:uuid`,
 * as the router notes it on the request's span, never the raw path), status and duration; nothing when it is not set.
 */
export const requestMetrics = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(Operations, (operations) => {
    if (Option.isNone(operations.observeRequest)) return app
    const observe = operations.observeRequest.value
    return Effect.withFiberRuntime((fiber) => {
      const started = performance.now()
      const context = fiber.currentContext
      const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
      return Effect.onExit(app, (exit) =>
        Effect.sync(() => {
          const span = Context.getOption(context, Tracer.ParentSpan)
          const route = Option.isSome(span) && span.value._tag === "Span" ? span.value.attributes.get("http.route") : undefined
          observe({
            method: request.method,
            route: typeof route === "string" ? route : UNMATCHED_ROUTE,
            status: HttpServerError.exitResponse(exit).status,
            seconds: (performance.now() - started) / 1000
          })
        }))
    })
  })
