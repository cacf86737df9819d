import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Cause, Effect, FiberRef, HashMap, HashSet, Inspectable, List, LogLevel, LogSpan, Option } from "effect"

/** Public link paths whose last segment is a signature (the secret that makes the link work). */
const SIGNED = /^\/(t\/o|t\/c|u|webview|confirm)\/[^/?#]+(?:\/[^/?#]+)*\/[^/?#]+$/
const ADDRESS = /@|%40/i
/** A provider webhook authenticated by a secret last path segment. */
const SECRET_PATH = /^\/feedback\/postmark\/[^/?#]+$/

/**
 * A request URL as the log shows it: the signature of a public mail link, a webhook's secret path segment and any
 * path segment or query value that holds an address are replaced by `…`, so logs never carry working links, webhook
 * secrets or subscribers' addresses.
 */
export const redactUrl = (url: string): string => {
  const at = url.indexOf("?")
  let path = at < 0 ? url : url.slice(0, at)
  const query = at < 0 ? "" : url.slice(at + 1)
  if ((SIGNED.test(path) && path.split("/").length > 3) || SECRET_PATH.test(path)) path = path.replace(/\/[^/]+$/, "/…")
  path = path.split("/").map((segment) => (ADDRESS.test(segment) ? "…" : segment)).join("/")
  if (query === "") return path
  const params = query.split("&").map((pair) => {
    const eq = pair.indexOf("=")
    return eq >= 0 && ADDRESS.test(pair.slice(eq + 1)) ? `${pair.slice(0, eq)}=…` : pair
  })
  return `${path}?${params.join("&")}`
}

/** The log span of a request's time, as the platform's logger names it. */
const SPAN = "http.span"

/**
 * Writes a request's line to the fiber's loggers exactly as `Effect.annotateLogs(Effect.log(...), annotations)` inside
 * `Effect.withLogSpan(SPAN)` would (the same level check, annotations, spans, date and context), without setting a
 * fiber ref: each of those copies the fiber's refs twice. A request's log took 110-160 µs of its CPU that way, ~55 µs
 * more than this (bench/HISTORY.md).
 */
const logLine = (
  message: ReadonlyArray<unknown>,
  cause: Cause.Cause<unknown>,
  annotations: Readonly<Record<string, unknown>>,
  span: LogSpan.LogSpan
): Effect.Effect<void> =>
  Effect.clockWith((clock) =>
    Effect.withFiberRuntime((fiber) => {
      const logLevel = fiber.getFiberRef(FiberRef.currentLogLevel)
      const loggers = fiber.getFiberRef(FiberRef.currentLoggers)
      if (LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), logLevel) || HashSet.size(loggers) === 0) {
        return Effect.void
      }
      let annotated = fiber.getFiberRef(FiberRef.currentLogAnnotations)
      for (const key in annotations) annotated = HashMap.set(annotated, key, annotations[key])
      const spans = List.prepend(fiber.getFiberRef(FiberRef.currentLogSpan), span)
      const context = fiber.getFiberRefs()
      const date = new Date(clock.unsafeCurrentTimeMillis())
      Inspectable.withRedactableContext(context, () => {
        for (const logger of loggers) {
          logger.log({ fiberId: fiber.id(), logLevel, message, cause, context, spans, annotations: annotated, date })
        }
      })
      return Effect.void
    })
  )

/**
 * Logs one line per request (method, redacted URL, status, and the request's time as the span `http.span`), as the
 * platform's logger does but with `redactUrl`; a failure's cause is logged with it. Unlike the platform's logger it
 * does not put the span on lines logged while the request runs.
 */
export const requestLogger = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.clockWith((clock) => {
      const span = LogSpan.make(SPAN, clock.unsafeCurrentTimeMillis())
      return Effect.flatMap(Effect.exit(app), (exit) => {
        const [response, cause] = exit._tag === "Failure" ? HttpServerError.causeResponseStripped(exit.cause) : [exit.value, Option.none()] as const
        // a failure's cause is the entry itself, as `Effect.log(cause)` makes it: no message parts
        const [message, logged] = Option.isSome(cause)
          ? [[], cause.value]
          : [[exit._tag === "Success" ? "Sent HTTP response" : "Sent HTTP Response"], Cause.empty]
        const annotations = { "http.method": request.method, "http.url": redactUrl(request.url), "http.status": response.status }
        return Effect.zipRight(logLine(message, logged, annotations, span), exit)
      })
    }))
