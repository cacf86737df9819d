import {
  AppUrl,
  AutomationMailDelivery,
  BounceOptions,
  CampaignDelivery,
  DeliveryOptions,
  FeedbackGate,
  ImportOptions,
  ImportWorker,
  JobWorker,
  MailIdentity,
  EventRetention,
  Mailroom,
  MailroomWebhooks,
  MailroomAutomations,
  AutomationRunner,
  AutomationTriggers,
  TransactionalDelivery,
  WebhookDispatcher,
  WebhookOptions,
  AutomationOptions,
  WebhookSender
} from "@mailroom/core"
import { CsvThreadReader } from "@mailroom/csv"
import { WebhookPayloadsLive } from "@mailroom/http"
import { Duration, Effect, Fiber, Layer, Option } from "effect"
import { LoggingLive } from "./logging.js"
import { RunningWorkers } from "./RunningWorkers.js"
import { mailerFromConfig } from "./mailerFromConfig.js"
import { MarkedRenderer } from "./markdown.js"
import { NodeHmac } from "./nodeHmac.js"
import { NodeSha256 } from "./nodeSha256.js"
import type { ServerConfig } from "./ServerConfig.js"
import { storageFromUrl } from "./storageFromUrl.js"
import { NodeWebhookTransport } from "./webhooks/nodeWebhookTransport.js"

/** What the background loops need. */
type Workers =
  | JobWorker
  | CampaignDelivery
  | TransactionalDelivery
  | AutomationMailDelivery
  | ImportWorker
  | WebhookDispatcher
  | WebhookSender
  | EventRetention
  | AutomationRunner
  | AutomationTriggers

/**
 * The background loops: durable jobs (confirmation and test mails), campaign delivery, transactional delivery (its
 * own loop, so a transactional mail never waits for a campaign slice), automation mail delivery, subscriber imports,
 * outgoing webhooks (the dispatcher reading the outbox and the senders), the outbox's retention, and automations (the
 * triggers and the scheduler).
 */
export const runWorkers: Effect.Effect<never, never, Workers> = Effect.gen(function*() {
  const jobs = yield* JobWorker
  const delivery = yield* CampaignDelivery
  const transactional = yield* TransactionalDelivery
  const automationMails = yield* AutomationMailDelivery
  const imports = yield* ImportWorker
  const dispatcher = yield* WebhookDispatcher
  const webhooks = yield* WebhookSender
  const retention = yield* EventRetention
  const automations = yield* AutomationRunner
  const triggers = yield* AutomationTriggers
  return yield* Effect.raceAll([
    jobs.run,
    delivery.run,
    transactional.run,
    imports.run,
    dispatcher.run,
    webhooks.run,
    retention.run,
    automations.run,
    triggers.run,
    automationMails.run
  ])
})

/** Runs the background workers for as long as the layer lives; RunningWorkers tells whether they still run. */
export const WorkerLive: Layer.Layer<RunningWorkers, never, Workers> = Layer.scoped(
  RunningWorkers,
  Effect.map(Effect.forkScoped(runWorkers), (fiber) => ({ running: Effect.map(Fiber.poll(fiber), Option.isNone) }))
)

/** Use cases over the configured store and mailer, with links on APP_URL. */
export const MailroomFromConfig = (config: ServerConfig) =>
  Layer.merge(MailroomAutomations.pipe(Layer.provideMerge(Mailroom)), MailroomWebhooks).pipe(
    Layer.provide(WebhookPayloadsLive),
    Layer.provide(NodeWebhookTransport({ timeoutMs: config.webhookTimeoutSeconds * 1_000 })),
    Layer.provide(Layer.effect(
      WebhookOptions,
      Effect.map(WebhookOptions, (defaults) => ({
        ...defaults,
        lease: Duration.seconds(Math.max(5, 3 * config.webhookTimeoutSeconds)),
        ratePerSecondWhileSending: config.webhookRateWhileSending
      }))
    )),
    Layer.provide(mailerFromConfig(config)),
    Layer.provide(CsvThreadReader()),
    Layer.provide(NodeHmac),
    Layer.provide(NodeSha256),
    Layer.provideMerge(storageFromUrl(config.databaseUrl, { preparedStatements: config.pgPreparedStatements })),
    Layer.provide(Layer.succeed(AppUrl, config.appUrl)),
    Layer.provide(MarkedRenderer),
    Layer.provide(Layer.effect(
      DeliveryOptions,
      Effect.map(DeliveryOptions, (defaults) => ({
        ...defaults,
        ratePerSecond: Math.max(0, config.deliveryRate),
        concurrency: Math.max(1, config.deliveryConcurrency),
        lease: Duration.seconds(Math.max(1, config.deliveryLeaseSeconds)),
        retryFor: Duration.millis(Math.max(0, config.deliveryRetryHours) * 3_600_000)
      }))
    )),
    Layer.provide(Layer.succeed(BounceOptions, { softBounceLimit: Math.max(1, config.softBounceLimit) })),
    Layer.provide(Layer.mergeAll(
      Layer.succeed(MailIdentity, { bounceAddress: config.bounceAddress, feedbackId: config.feedbackId }),
      Layer.succeed(FeedbackGate, config.feedback)
    )),
    Layer.provide(Layer.effect(
      ImportOptions,
      Effect.map(ImportOptions, (defaults) => ({
        ...defaults,
        batchSize: config.importBatchRows,
        windowRows: config.importWindowRows,
        lease: Duration.seconds(Math.max(1, config.importLeaseSeconds))
      }))
    )),
    Layer.provide(Layer.effect(
      AutomationOptions,
      Effect.map(AutomationOptions, (defaults) => ({ ...defaults, lease: Duration.seconds(config.automationLeaseSeconds) }))
    )),
    Layer.provide(LoggingLive({ format: config.logFormat, level: config.logLevel }))
  )
