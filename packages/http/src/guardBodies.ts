import { type HttpApp, HttpMethod, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { DEFAULT_JSON_LIMITS, type JsonLimits, jsonProblems } from "./JsonLimits.js"

const json = (status: number, body: object) => HttpServerResponse.unsafeJson(body, { status })

const summary = (errors: Record<string, Array<string>>) => {
  const all = Object.values(errors).flat()
  return all.length === 1 ? all[0]! : `${all[0]} (and ${all.length - 1} more error${all.length === 2 ? "" : "s"})`
}

/** The request with its body already parsed: the API's decoding reads `json` from here instead of parsing again. */
const withJson = (request: HttpServerRequest.HttpServerRequest, parsed: unknown): HttpServerRequest.HttpServerRequest =>
  new Proxy(request, {
    get: (target, key) => {
      if (key === "json") return Effect.succeed(parsed)
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === "function" ? value.bind(target) : value
    }
  })

/**
 * Checks request bodies before any handler sees them. Nothing in Mailroom takes multipart bodies (415); `/api`
 * bodies are JSON (415 for another content type), parsed once here and checked against the limits (422 naming the
 * field: too deep, too many keys, items or values, lone surrogates), so no decoder ever walks a hostile document.
 * Bodies over the size limit are left to fail as they did (413).
 */
export const guardBodies = (limits: JsonLimits = DEFAULT_JSON_LIMITS) => (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (!HttpMethod.hasBody(request.method) || request.headers["content-length"] === "0") return app
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    const api = request.url.startsWith("/api/")
    const isJson = type === "" || type === "application/json" || type.endsWith("+json")
    if (type.startsWith("multipart/") || (api && !isJson)) {
      return Effect.succeed(json(415, { message: "The request body must be JSON (Content-Type: application/json)." }))
    }
    if (!api) return app
    return Effect.matchEffect(request.text, {
      onFailure: () => app,
      onSuccess: (text) => {
        if (text.trim() === "") return app
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          return Effect.succeed(json(422, { message: "The request body is not valid JSON.", errors: {} }))
        }
        const errors = jsonProblems(parsed, limits)
        if (errors !== null) return Effect.succeed(json(422, { message: summary(errors), errors }))
        return Effect.provideService(app, HttpServerRequest.HttpServerRequest, withJson(request, parsed))
      }
    })
  })
