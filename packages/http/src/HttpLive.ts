import {
  type HttpApp,
  HttpApiBuilder,
  HttpApiSwagger,
  HttpIncomingMessage,
  HttpMiddleware,
  HttpServer
} from "@effect/platform"
import { FileSystem } from "@effect/platform"
import { Layer, Option } from "effect"
import { Api } from "./Api.js"
import { AuthorizationLive } from "./AuthorizationLive.js"
import { ErrorResponses } from "./ErrorResponses.js"
import { EmailListsLive } from "./handlers/EmailListsLive.js"
import { SuppressionsLive } from "./handlers/SuppressionsLive.js"
import { TemplatesLive } from "./handlers/TemplatesLive.js"

/** The API with every handler and the bearer-token middleware, given Mailroom's use cases. */
export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([TemplatesLive, EmailListsLive, SuppressionsLive]),
  Layer.provide(AuthorizationLive)
)

/** Options of the HTTP application. */
export interface HttpOptions {
  /** Log one line per request (default true). */
  readonly logRequests?: boolean
  /** Largest request body in bytes; larger ones are answered 413 (default 10 MiB). */
  readonly maxBodyBytes?: number
}

/** Default request body cap: 10 MiB. Large CSV imports arrive in several append calls. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024

/**
 * The whole HTTP application: /api routes, /api/openapi.json and the /docs page, served by `server`
 * (a platform layer providing HttpServer, HttpPlatform, FileSystem, Path and Etag, like NodeHttpServer.layer).
 * The server layer is provided innermost, so it starts listening only once every handler is ready
 * (a request that arrived earlier would otherwise never be answered).
 */
export const HttpLive = <ROut, E, R>(server: Layer.Layer<ROut, E, R>, options: HttpOptions = {}) => {
  const maxBodySize = Option.some(FileSystem.Size(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES))
  const logger = options.logRequests === false ? (app: HttpApp.Default) => app : HttpMiddleware.logger
  return HttpApiBuilder.serve((app) => logger(HttpIncomingMessage.withMaxBodySize(app, maxBodySize))).pipe(
    HttpServer.withLogAddress,
    Layer.provide(server),
    Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" })),
    Layer.provide(ErrorResponses),
    Layer.provide(ApiLive)
  )
}
