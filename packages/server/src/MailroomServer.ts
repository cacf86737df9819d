import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { AppUrl, CampaignDelivery, DeliveryOptions, JobWorker, Mailroom } from "@mailroom/core"
import { HttpLive } from "@mailroom/http"
import { Duration, Effect, Layer } from "effect"
import { mailerFromConfig } from "./mailerFromConfig.js"
import { MarkedRenderer } from "./markdown.js"
import type { ServerConfig } from "./ServerConfig.js"
import { SeedToken } from "./SeedToken.js"
import { storageFromUrl } from "./storageFromUrl.js"

/** Both background loops: durable jobs (confirmation and test mails) and campaign delivery. */
export const runWorkers: Effect.Effect<never, never, JobWorker | CampaignDelivery> = Effect.gen(function*() {
  const jobs = yield* JobWorker
  const delivery = yield* CampaignDelivery
  return yield* Effect.raceAll([jobs.run, delivery.run])
})

/** Runs the background workers for as long as the layer lives. */
export const WorkerLive: Layer.Layer<never, never, JobWorker | CampaignDelivery> = Layer.scopedDiscard(
  Effect.forkScoped(runWorkers)
)

/** Use cases over the configured store and mailer, with links on APP_URL. */
export const MailroomFromConfig = (config: ServerConfig) =>
  Mailroom.pipe(
    Layer.provide(mailerFromConfig(config)),
    Layer.provideMerge(storageFromUrl(config.databaseUrl)),
    Layer.provide(Layer.succeed(AppUrl, config.appUrl)),
    Layer.provide(MarkedRenderer),
    Layer.provide(Layer.effect(
      DeliveryOptions,
      Effect.map(DeliveryOptions, (defaults) => ({
        ...defaults,
        ratePerSecond: Math.max(0, config.deliveryRate),
        concurrency: Math.max(1, config.deliveryConcurrency),
        lease: Duration.seconds(Math.max(1, config.deliveryLeaseSeconds))
      }))
    ))
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
