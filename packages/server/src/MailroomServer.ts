import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { AppUrl, JobWorker, Mailroom } from "@mailroom/core"
import { HttpLive } from "@mailroom/http"
import { Effect, Layer } from "effect"
import { mailerFromConfig } from "./mailerFromConfig.js"
import type { ServerConfig } from "./ServerConfig.js"
import { SeedToken } from "./SeedToken.js"
import { storageFromUrl } from "./storageFromUrl.js"

/** Runs the job worker in the background for as long as the layer lives. */
export const WorkerLive: Layer.Layer<never, never, JobWorker> = Layer.scopedDiscard(
  Effect.flatMap(JobWorker, (worker) => Effect.forkScoped(worker.run))
)

/** Use cases over the configured store and mailer, with links on APP_URL. */
export const MailroomFromConfig = (config: ServerConfig) =>
  Mailroom.pipe(
    Layer.provide(mailerFromConfig(config)),
    Layer.provideMerge(storageFromUrl(config.databaseUrl)),
    Layer.provide(Layer.succeed(AppUrl, config.appUrl))
  )

/**
 * The standalone server: store → use cases → API_TOKEN seed → job worker → HTTP. Built in that order, so the port
 * opens only when migrations have run and every handler is ready.
 */
export const MailroomServer = (config: ServerConfig) =>
  HttpLive(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }), {
    logRequests: config.logRequests
  }).pipe(
    Layer.provide(SeedToken(config.apiToken)),
    Layer.provide(config.workers ? WorkerLive : Layer.empty),
    Layer.provideMerge(MailroomFromConfig(config))
  )
