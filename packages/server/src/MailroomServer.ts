import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Mailroom } from "@mailroom/core"
import { HttpLive } from "@mailroom/http"
import { Layer } from "effect"
import type { ServerConfig } from "./ServerConfig.js"
import { SeedToken } from "./SeedToken.js"
import { storageFromUrl } from "./storageFromUrl.js"

/**
 * The standalone server: store → use cases → API_TOKEN seed → HTTP. Built in that order, so the port opens only
 * when migrations have run and every handler is ready.
 */
export const MailroomServer = (config: ServerConfig) =>
  HttpLive(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }), {
    logRequests: config.logRequests
  }).pipe(
    Layer.provide(SeedToken(config.apiToken)),
    Layer.provideMerge(Mailroom),
    Layer.provide(storageFromUrl(config.databaseUrl))
  )
