import { type HttpApp, HttpServerError, HttpServerRequest, HttpTraceContext } from "@effect/platform"
import { Effect, Option } from "effect"
import { redactUrl } from "./requestLogger.js"

/**
 * A server span per request (`http.server METHOD`, continuing a `traceparent` or B3 trace the request carries), with the
 * method, the redacted path, the route the router matched (`http.route`, which the request metrics read) and the
 * status. It stands in for the platform's tracer middleware, which `HttpLive` turns off: that one parsed the URL and
 * wrote every request and response header into attributes, ~35 µs of a request's CPU more than this
 * (bench/HISTORY.md), and put the full URL, signed links and addresses included, into the span.
 */
export const requestSpan = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const query = request.url.indexOf("?")
    return Effect.useSpan(`http.server ${request.method}`, {
      kind: "server",
      captureStackTrace: false,
      parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
      attributes: { "http.request.method": request.method, "url.path": redactUrl(query < 0 ? request.url : request.url.slice(0, query)) }
    }, (span) =>
      Effect.onExit(
        Effect.withParentSpan(app, span),
        (exit) => Effect.sync(() => span.attribute("http.response.status_code", HttpServerError.exitResponse(exit).status))
      ))
  })
