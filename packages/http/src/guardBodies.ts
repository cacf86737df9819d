import { type HttpApp, HttpMethod, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { ValidationError } from "@mailroom/core"
import { Chunk, Effect, Stream } from "effect"
import { DEFAULT_JSON_LIMITS, type JsonLimits, jsonProblems } from "./JsonLimits.js"

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/**
 * The request with some body readers replaced (a body already read, or already parsed). Its methods are bound to the
 * request once each, on first use, rather than on every access.
 */
const overriding = (request: HttpServerRequest.HttpServerRequest, readers: Record<string, unknown>): HttpServerRequest.HttpServerRequest => {
  const bound = new Map<PropertyKey, { readonly of: Function; readonly fn: Function }>()
  return new Proxy(request, {
    get: (target, key) => {
      if (typeof key === "string" && key in readers) return readers[key]
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== "function") return value
      const known = bound.get(key)
      if (known !== undefined && known.of === value) return known.fn
      const fn = value.bind(target)
      bound.set(key, { of: value, fn })
      return fn
    }
  })
}

/**
 * Reads a body without a declared length up to `max` bytes; past it, reads on without keeping anything (up to
 * `drain` bytes) so the client, still sending, gets the 413 instead of a reset connection. Null when it was too large.
 */
const readBounded = (request: HttpServerRequest.HttpServerRequest, max: number, drain: number) =>
  Stream.runFoldWhile(
    request.stream,
    { chunks: Chunk.empty<Uint8Array>(), size: 0 },
    (state) => state.size <= drain,
    (state, chunk) => ({ chunks: state.size + chunk.length <= max ? Chunk.append(state.chunks, chunk) : state.chunks, size: state.size + chunk.length })
  ).pipe(Effect.map(({ chunks, size }) => (size > max ? null : Buffer.concat(Chunk.toArray(chunks)))))

/** The readers of a body read whole; each decodes or copies only when it is used. */
const bodyReaders = (bytes: Uint8Array) => {
  let decoded: string | undefined
  const text = Effect.sync(() => (decoded ??= new TextDecoder().decode(bytes)))
  return {
    text,
    arrayBuffer: Effect.sync(() => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
    stream: Stream.make(bytes),
    urlParamsBody: Effect.map(text, (body) => UrlParams.fromInput(new URLSearchParams(body)))
  }
}

/**
 * Checks request bodies before any handler sees them. Nothing in Mailroom takes multipart bodies (415); `/api`
 * bodies are JSON (415 for another content type), parsed once here and checked against the limits (too deep, too
 * many keys, items or values, lone surrogates), so no decoder ever walks a hostile document; the handler reading the
 * body then gets the value or a ValidationError (422 naming the field), after authentication.
 * A chunked body over `maxBytes` is answered 413 (the rest is read and dropped first, up to four times the limit);
 * one with a declared length over it never gets here (`limitBody`).
 */
export const guardBodies = (maxBytes: number, limits: JsonLimits = DEFAULT_JSON_LIMITS) => (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (!HttpMethod.hasBody(request.method) || request.headers["content-length"] === "0") return app
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    const api = request.url.startsWith("/api/")
    const isJson = type === "" || type === "application/json" || type.endsWith("+json")
    if (type.startsWith("multipart/") || (api && !isJson)) {
      return Effect.succeed(json(415, { message: "The request body must be JSON (Content-Type: application/json)." }))
    }
    // a body comes with a Content-Length or as chunks (Transfer-Encoding); with neither there is none
    const chunked = request.headers["content-length"] === undefined && request.headers["transfer-encoding"] !== undefined
    if (request.headers["content-length"] === undefined && !chunked) return app
    return Effect.gen(function*() {
      let current = request
      if (chunked) {
        const bytes = yield* readBounded(request, maxBytes, 4 * maxBytes).pipe(Effect.orElseSucceed(() => null))
        if (bytes === null) return json(413, { message: `The request body is too large (limit ${maxBytes} bytes).` }, { connection: "close" })
        current = overriding(request, bodyReaders(bytes))
      }
      const next = current === request ? app : Effect.provideService(app, HttpServerRequest.HttpServerRequest, current)
      if (!api) return yield* next
      const text = yield* Effect.either(current.text)
      if (text._tag === "Left" || text.right.trim() === "") return yield* next
      // the verdict waits for the handler to read the body: authentication comes first (401/403 before 422)
      let parsed: Effect.Effect<unknown, ValidationError>
      try {
        const value: unknown = JSON.parse(text.right)
        const errors = jsonProblems(value, limits)
        parsed = errors === null ? Effect.succeed(value) : Effect.fail(ValidationError.fromErrors(errors))
      } catch {
        parsed = Effect.fail(new ValidationError({ message: "The request body is not valid JSON.", errors: {} }))
      }
      return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, overriding(current, { json: parsed }))
    })
  })
