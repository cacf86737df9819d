import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { requestSpan } from "@mailroom/http"
import { Effect, Option, type Tracer } from "effect"

/** Runs `requestSpan` around an app that notes its route on the request's span as the router does; the span. */
const spanOf = (url: string, headers: Record<string, string>, status: number) =>
  Effect.gen(function*() {
    let seen: Tracer.Span | undefined
    const app = Effect.gen(function*() {
      const span = yield* Effect.currentSpan
      span.attribute("http.route", "/api/suppressions/:email")
      seen = span
      return HttpServerResponse.empty({ status })
    }).pipe(Effect.orDie)
    const request = HttpServerRequest.fromWeb(new Request(`http://localhost${url}`, { method: "DELETE", headers }))
    yield* requestSpan(app).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
    return seen!
  })

describe("requestSpan", () => {
  it.effect("gives each request a server span with its method, redacted path, route and status, ended", () =>
    Effect.gen(function*() {
      const span = yield* spanOf("/api/suppressions/ada@example.com?page=2", {}, 204)
      expect(span.name).toBe("http.server DELETE")
      expect(span.kind).toBe("server")
      expect(Object.fromEntries(span.attributes)).toEqual({
        "http.request.method": "DELETE",
        "url.path": "/api/suppressions/…",
        "http.route": "/api/suppressions/:email",
        "http.response.status_code": 204
      })
      expect(span.status._tag).toBe("Ended")
    }))

  it.effect("continues the trace a request carries", () =>
    Effect.gen(function*() {
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
      const span = yield* spanOf("/x", { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }, 200)
      expect(span.traceId).toBe(traceId)
      expect(Option.map(span.parent, (parent) => parent.spanId)).toEqual(Option.some("00f067aa0ba902b7"))
    }))
})
