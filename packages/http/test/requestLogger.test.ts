import { type HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { redactUrl, requestLogger } from "@mailroom/http"
import { Cause, Effect, List, Logger, LogLevel, Option } from "effect"

describe("redactUrl", () => {
  it("hides the signature of every public mail link, keeping what the link is", () => {
    expect(redactUrl("/t/o/5e4d0000-0000-4000-8000-000000000009/AbCdEfGhIjKlMnOp")).toBe("/t/o/5e4d0000-0000-4000-8000-000000000009/…")
    expect(redactUrl("/t/c/5e4d/42.AbCdEfGhIjKlMnOp/QrStUvWxYz012345")).toBe("/t/c/5e4d/42.AbCdEfGhIjKlMnOp/…")
    expect(redactUrl("/u/5e4d/AbCdEfGhIjKlMnOp")).toBe("/u/5e4d/…")
    expect(redactUrl("/confirm/a0b1/AbCdEfGhIjKlMnOp")).toBe("/confirm/a0b1/…")
    expect(redactUrl("/webview/c0ff/5e4d/AbCdEfGhIjKlMnOp")).toBe("/webview/c0ff/5e4d/…")
    expect(redactUrl("/webview/c0ff")).toBe("/webview/c0ff")
    expect(redactUrl("/confirm/a0b1")).toBe("/confirm/a0b1")
    expect(redactUrl("/feedback/postmark/s3cret-path")).toBe("/feedback/postmark/…")
    expect(redactUrl("/feedback/postmark")).toBe("/feedback/postmark")
  })

  it("hides addresses in paths and query values, plain or percent-encoded, and leaves the rest", () => {
    expect(redactUrl("/api/suppressions/ada@example.com")).toBe("/api/suppressions/…")
    expect(redactUrl("/api/suppressions/ada%40example.com")).toBe("/api/suppressions/…")
    expect(redactUrl("/api/email-lists/x/subscribers?filter[email]=ada%40example.com&page=2&sort=-created_at"))
      .toBe("/api/email-lists/x/subscribers?filter[email]=…&page=2&sort=-created_at")
    expect(redactUrl("/api/templates?filter[search]=news&per_page=5")).toBe("/api/templates?filter[search]=news&per_page=5")
  })
})

/** What a logger was given for one entry, without the parts that differ between two runs (times, fiber ids). */
interface Entry {
  readonly level: string
  readonly message: unknown
  readonly cause: string
  readonly annotations: ReadonlyArray<readonly [string, unknown]>
  readonly spans: ReadonlyArray<string>
}

/** Runs `app` as a request for `url` through `logger` and returns the entries every installed logger received. */
const logged = (logger: (app: HttpApp.Default) => HttpApp.Default, app: HttpApp.Default, url: string) =>
  Effect.gen(function*() {
    const entries: Array<Entry> = []
    const capture = Logger.make(({ annotations, cause, logLevel, message, spans }) => {
      entries.push({
        level: logLevel.label,
        message,
        cause: Cause.pretty(cause),
        annotations: [...annotations],
        spans: List.toArray(spans).map((span) => span.label)
      })
    })
    yield* logger(app).pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request(`http://localhost${url}`))),
      Effect.annotateLogs("outer", "kept"),
      Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
      Effect.exit
    )
    return entries
  })

/** The request log as Effect's own `withLogSpan`, `annotateLogs` and `log` write it (the platform logger's way). */
const throughEffectsLog = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.withLogSpan(
      Effect.flatMap(Effect.exit(app), (exit) => {
        const annotations = { "http.method": request.method, "http.url": redactUrl(request.url) }
        const [response, cause] = exit._tag === "Failure"
          ? HttpServerError.causeResponseStripped(exit.cause)
          : [exit.value, Option.none()] as const
        const message = exit._tag === "Success" ? "Sent HTTP response" : Option.isSome(cause) ? cause.value : "Sent HTTP Response"
        return Effect.zipRight(Effect.annotateLogs(Effect.log(message), { ...annotations, "http.status": response.status }), exit)
      }),
      "http.span"
    ))

describe("requestLogger", () => {
  const apps = [
    ["an answer", Effect.succeed(HttpServerResponse.empty({ status: 204 })), "/api/suppressions/ada@example.com?page=2"],
    ["a defect", Effect.die(new Error("boom")), "/api/templates"],
    // a response raised as a defect leaves no cause to log
    ["a response raised as a defect", Effect.die(HttpServerResponse.empty({ status: 404 })), "/api/templates/x"],
    // the router fails with RouteNotFound, which the type of a served app does not show
    ["a known failure", Effect.fail(new HttpServerError.RouteNotFound({ request: HttpServerRequest.fromWeb(new Request("http://localhost/x")) })) as unknown as HttpApp.Default, "/x"]
  ] as const
  for (const [name, app, url] of apps) {
    it.effect(`gives the loggers what Effect's log would for ${name}: level, message, cause, annotations and span`, () =>
      Effect.gen(function*() {
        const ours = yield* logged(requestLogger, app, url)
        expect(ours).toHaveLength(1)
        expect(ours).toEqual(yield* logged(throughEffectsLog, app, url))
      }))
  }

  it.effect("writes nothing below the minimum level", () =>
    Effect.gen(function*() {
      const entries = yield* logged(requestLogger, Effect.succeed(HttpServerResponse.empty()), "/").pipe(Logger.withMinimumLogLevel(LogLevel.Warning))
      expect(entries).toEqual([])
    }))
})
