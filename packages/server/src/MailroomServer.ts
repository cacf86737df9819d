import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { AdminApp, HttpLive } from "@mailroom/http"
import { Layer } from "effect"
import { loadAdminAssets } from "./adminAssets.js"
import { LoggingLive } from "./logging.js"
import { MailroomFromConfig, WorkerLive } from "./MailroomFromConfig.js"
import { OperationsLive } from "./OperationsLive.js"
import type { ServerConfig } from "./ServerConfig.js"
import { SeedToken } from "./SeedToken.js"

/**
 * The standalone server: logger → store → use cases → job worker → API_TOKEN seed → operations (readiness, metrics) →
 * the web admin's files → HTTP. Built in that order, so the port opens only when migrations have run and every handler
 * is ready.
 */
export const MailroomServer = (config: ServerConfig) =>
  HttpLive(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }), {
    logRequests: config.logRequests,
    clientLimits: { perMinute: config.rateLimitPerMinute, inFlight: config.clientConcurrency }
  }).pipe(
    Layer.provide(OperationsLive({ metricsToken: config.metricsToken })),
    Layer.provide(Layer.sync(AdminApp, () => ({ assets: loadAdminAssets() }))),
    Layer.provide(SeedToken(config.apiToken)),
    Layer.provide(config.workers ? WorkerLive : Layer.empty),
    Layer.provideMerge(MailroomFromConfig(config)),
    Layer.provide(LoggingLive({ format: config.logFormat, level: config.logLevel }))
  )
