import {
  Etag,
  FileSystem,
  HttpApi,
  type HttpApp,
  HttpApiBuilder,
  HttpIncomingMessage,
  HttpMiddleware,
  HttpPlatform,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse,
  Path
} from "@effect/platform"
import {
  AutomationMails,
  Automations,
  CampaignActions,
  CampaignPreviews,
  CampaignStatistics,
  Campaigns,
  EmailLists,
  EngagementReports,
  ProviderFeedback,
  Segments,
  Sends,
  SubscriberActions,
  SubscriberImports,
  Subscribers,
  Suppressions,
  Tags,
  Templates,
  Tokens,
  Tracking,
  TransactionalMails,
  TransactionalTemplates,
  WebViews,
  Webhooks,
  WorkSignal
} from "@mailroom/core"
import { Effect, Layer, Option } from "effect"
import { Api } from "./Api.js"
import { AuthorizationLive } from "./AuthorizationLive.js"
import { type ClientLimits, clientLimits, DEFAULT_CLIENT_LIMITS } from "./clientLimits.js"
import { ErrorResponses } from "./ErrorResponses.js"
import { guardBodies } from "./guardBodies.js"
import { isolated } from "./isolated.js"
import { Authorization } from "./Authorization.js"
import { Operations } from "./Operations.js"
import { OperationsRoutes } from "./operationsRoutes.js"
import { AdminRoutes } from "./adminRoutes.js"
import { DocsRoute } from "./DocsRoute.js"
import { requestLogger } from "./requestLogger.js"
import { requestMetrics } from "./requestMetrics.js"
import { requestSpan } from "./requestSpan.js"
import { securityHeaders } from "./securityHeaders.js"
import { wakeWorkers } from "./wakeWorkers.js"
import { CampaignsLive } from "./handlers/CampaignsLive.js"
import { ConfirmationLive } from "./handlers/ConfirmationLive.js"
import { EmailListsLive } from "./handlers/EmailListsLive.js"
import { SegmentsLive } from "./handlers/SegmentsLive.js"
import { SendsLive } from "./handlers/SendsLive.js"
import { StatisticsLive } from "./handlers/StatisticsLive.js"
import { SubscriberImportsLive } from "./handlers/SubscriberImportsLive.js"
import { SubscriberLive } from "./handlers/SubscriberLive.js"
import { SubscribersLive } from "./handlers/SubscribersLive.js"
import { SuppressionsLive } from "./handlers/SuppressionsLive.js"
import { TagsLive } from "./handlers/TagsLive.js"
import { TrackingLive } from "./handlers/TrackingLive.js"
import { TemplatesLive } from "./handlers/TemplatesLive.js"
import { FeedbackLive } from "./feedback/FeedbackLive.js"
import { TransactionalLive } from "./transactional/TransactionalLive.js"
import { AutomationsLive } from "./automations/AutomationsLive.js"
import { WebhooksLive } from "./webhooks/WebhooksLive.js"
import { AutomationMailsLive } from "./automations/AutomationMailsLive.js"
import { TokensLive } from "./tokens/TokensLive.js"
import { CampaignPreviewsLive } from "./handlers/CampaignPreviewsLive.js"
import { ActivityLive } from "./handlers/ActivityLive.js"

/** The API with every handler and the bearer-token middleware, given Mailroom's use cases (each group sees only its own). */
export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([
    isolated(TemplatesLive, [Authorization, Templates]),
    isolated(EmailListsLive, [Authorization, EmailLists]),
    isolated(SuppressionsLive, [Authorization, Suppressions]),
    isolated(TagsLive, [Authorization, Tags]),
    isolated(SegmentsLive, [Authorization, Segments]),
    isolated(SubscribersLive, [Authorization, Subscribers, SubscriberActions]),
    isolated(SubscriberLive, [Authorization, Subscribers, SubscriberActions]),
    isolated(ConfirmationLive, [SubscriberActions]),
    isolated(CampaignsLive, [Authorization, Campaigns, CampaignActions]),
    isolated(CampaignPreviewsLive, [Authorization, CampaignPreviews]),
    isolated(SendsLive, [Authorization, Sends]),
    isolated(SubscriberImportsLive, [Authorization, SubscriberImports]),
    isolated(StatisticsLive, [Authorization, CampaignStatistics, Tracking]),
    isolated(ActivityLive, [Authorization, EngagementReports]),
    isolated(TransactionalLive, [Authorization, TransactionalTemplates, TransactionalMails]),
    isolated(AutomationsLive, [Authorization, Automations]),
    isolated(AutomationMailsLive, [Authorization, AutomationMails]),
    isolated(WebhooksLive, [Authorization, Webhooks]),
    isolated(TokensLive, [Authorization, Tokens]),
    isolated(TrackingLive, [Tracking, WebViews]),
    isolated(FeedbackLive, [ProviderFeedback])
  ]),
  Layer.provide(AuthorizationLive)
)

/** Options of the HTTP application. */
export interface HttpOptions {
  /** Log one line per request (default true). */
  readonly logRequests?: boolean
  /** Largest request body in bytes; larger ones are answered 413 (default 10 MiB). */
  readonly maxBodyBytes?: number
  /** Rate limit and requests in flight per client (default: no rate limit, 8 at a time). */
  readonly clientLimits?: ClientLimits
}

/** Default request body cap: 10 MiB. Large CSV imports arrive in several append calls. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024

/**
 * Caps request bodies: a declared Content-Length over the limit is answered 413 before any of the body is read
 * (reading it would have the platform reset the connection); a chunked body is measured as it arrives (`guardBodies`).
 */
export const limitBody = (maxBytes: number) => (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Number(request.headers["content-length"] ?? 0) > maxBytes
      ? Effect.succeed(HttpServerResponse.unsafeJson(
        { message: `The request body is too large (limit ${maxBytes} bytes).` },
        { status: 413, headers: { connection: "close" } }
      ))
      : HttpIncomingMessage.withMaxBodySize(app, Option.some(FileSystem.Size(maxBytes))))

/**
 * The whole HTTP application: /api routes, /api/openapi.json, the /docs page and the operations routes (`/`,
 * /healthz, /readyz, /metrics, reporting what `Operations` gives; every request timed for it), served by `server`
 * (a platform layer providing HttpServer, HttpPlatform, FileSystem, Path and Etag, like NodeHttpServer.layer).
 * The server layer is provided innermost, so it starts listening only once every handler is ready
 * (a request that arrived earlier would otherwise never be answered). The server and each handler group are built
 * `isolated`: a request's fiber carries the dozen services it can reach, not the application's ~90.
 */
export const HttpLive = <ROut, E, R>(server: Layer.Layer<ROut, E, R>, options: HttpOptions = {}) => {
  const logger = options.logRequests === false ? (app: HttpApp.Default) => app : requestLogger
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const limit = limitBody(maxBytes)
  const guard = guardBodies(maxBytes)
  const fair = clientLimits(options.clientLimits ?? DEFAULT_CLIENT_LIMITS)
  const serve = HttpApiBuilder.serve((app) => requestSpan(requestMetrics(logger(securityHeaders(fair(limit(guard(wakeWorkers(app)))))))))
    .pipe(HttpMiddleware.withTracerDisabledWhen(() => true))
  const middlewares = Layer.merge(
    isolated(ErrorResponses, [HttpApi.Api]),
    isolated(HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" }), [HttpApi.Api])
  )
  // what a request reaches besides its own services: the platform's, the API's, and the two the middlewares read per request
  const platform = [HttpApi.Api, HttpServer.HttpServer, HttpPlatform.HttpPlatform, Etag.Generator, FileSystem.FileSystem, Path.Path] as const
  return isolated(HttpServer.withLogAddress(serve).pipe(Layer.provide(middlewares)), [...platform, Operations, WorkSignal]).pipe(
    Layer.provide(server),
    Layer.provide(DocsRoute),
    Layer.provide(OperationsRoutes),
    Layer.provide(AdminRoutes),
    Layer.provide(ApiLive)
  )
}
