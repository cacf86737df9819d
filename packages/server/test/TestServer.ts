import { createServer } from "node:http"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import {
  type Ability,
  AppUrl,
  AutomationMailDelivery,
  type AutomationMailId,
  AutomationMailRepository,
  type AutomationMailUuid,
  AutomationMailWakeup,
  CampaignDelivery,
  type FeedbackChecks,
  FeedbackGate,
  ImportWorker,
  JobWorker,
  type Mailer,
  MailIdentity,
  type MailMessage,
  Mailroom,
  MailroomWebhooks,
  MailroomAutomations,
  AutomationRunner,
  AutomationTriggers,
  newUuid,
  type SendUuid,
  type Storage,
  SubscriberRepository,
  type SubscriberUuid,
  Tokens,
  Transactor,
  TransactionalDelivery,
  WebhookDispatcher,
  WebhookSender
} from "@mailroom/core"
import { CsvThreadReader } from "@mailroom/csv"
import { MemoryMailbox, MemoryMailer } from "@mailroom/core/testing"
import { type ClientLimits, HttpLive, WebhookPayloadsLive } from "@mailroom/http"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { SqliteStorage } from "@mailroom/sqlite"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { WorkerLive } from "../src/MailroomFromConfig.js"
import { MarkedRenderer } from "../src/markdown.js"
import { SeedToken } from "../src/SeedToken.js"
import { NodeWebhookTransport, type WebhookTransportOptions } from "../src/webhooks/nodeWebhookTransport.js"

/** The stores every black-box test runs against. */
export const stores = ["sqlite", "postgres"] as const
/** One of the stores. */
export type Store = (typeof stores)[number]

/** The bearer token every test request carries unless told otherwise. */
export const TOKEN = "test-token-with-all-abilities"

/** A response as a client sees it. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed JSON body (undefined when empty or not JSON). */
  readonly body: any
}

/** Options of one request. */
export interface CallOptions {
  /** A JSON value, or a raw string sent as is. */
  readonly body?: unknown
  /** Overrides the bearer token; null sends no Authorization header. */
  readonly token?: string | null
  readonly headers?: Record<string, string>
}

/** A running Mailroom server on an ephemeral port, and ways to talk to it. */
export class TestServer extends Context.Tag("test/TestServer")<TestServer, {
  readonly url: string
  readonly call: (method: string, path: string, options?: CallOptions) => Effect.Effect<Reply>
  readonly tokenWith: (abilities: ReadonlyArray<Ability>) => Effect.Effect<string>
  /** Runs every due background job now (confirmation and test mails); the number run. */
  readonly runJobs: Effect.Effect<number>
  /** Runs campaign delivery until no campaign has work left (scheduled ones due, audiences, pending sends). */
  readonly deliver: Effect.Effect<number>
  /** Delivers every due transactional mail now; the number of outcomes recorded. */
  readonly deliverTransactional: Effect.Effect<number>
  /** Delivers every due automation mail send now; the number of outcomes recorded. */
  readonly deliverAutomationMails: Effect.Effect<number>
  /**
   * Queues sends of automation mails as the automation runner does (AutomationMailRepository.queueSends in a
   * transaction, then AutomationMailWakeup.notify); how many were inserted.
   */
  readonly queueAutomationSends: (
    sends: ReadonlyArray<{ readonly mailUuid: string; readonly subscriberUuid: string; readonly runId: number }>
  ) => Effect.Effect<number>
  /** Turns recorded events into webhook deliveries and sends every delivery due now. */
  readonly dispatchWebhooks: Effect.Effect<void>
  /** Enrols subscribers from waiting events and due timed triggers, then runs every due automation step. */
  readonly runAutomations: Effect.Effect<number>
  /** Runs started subscriber imports to their end; the number run. */
  readonly runImports: Effect.Effect<number>
  /** Mails accepted by the in-memory mailer (empty when the server uses another mailer). */
  readonly mails: Effect.Effect<ReadonlyArray<MailMessage>>
}>() {}

/** APP_URL of test servers: the origin of confirmation links in mails. */
export const APP_URL = "http://mailroom.test"

/** Options of a test server. */
export interface TestServerOptions {
  /** The mailer (default: in memory, read through `mails`). */
  readonly mailer?: Layer.Layer<Mailer>
  /** Run the background job worker as `npm start` does (default: jobs run only through `runJobs`). */
  readonly worker?: boolean
  /** BOUNCE_ADDRESS and FEEDBACK_ID (default: neither). */
  readonly identity?: { readonly bounceAddress: string | null; readonly feedbackId: string | null }
  /** RATE_LIMIT_PER_MINUTE and CLIENT_CONCURRENCY (default: no rate limit, 8 at a time). */
  readonly clientLimits?: ClientLimits
  /** Timeout and response cap of webhook requests (default as `npm start`). */
  readonly webhooks?: WebhookTransportOptions
  /** How providers' feedback webhooks are authenticated (default: no provider configured, their endpoints answer 404). */
  readonly feedback?: FeedbackChecks
}

const storage = (store: Store): Layer.Layer<Storage> =>
  store === "sqlite"
    ? SqliteStorage({ filename: ":memory:" })
    : PostgresIsolatedStorage(process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test")

/** Starts the real HTTP stack (same layers as `npm start`) on 127.0.0.1 with a fresh, empty store. */
export const TestServerLive = (store: Store, options: TestServerOptions = {}): Layer.Layer<TestServer> => {
  const node = NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })
  const app = HttpLive(node, { logRequests: false, ...(options.clientLimits ? { clientLimits: options.clientLimits } : {}) }).pipe(Layer.provide(SeedToken(Option.some(Redacted.make(TOKEN)))))
  return Layer.effect(
    TestServer,
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const tokens = yield* Tokens
      const worker = yield* JobWorker
      const delivery = yield* CampaignDelivery
      const imports = yield* ImportWorker
      const transactional = yield* TransactionalDelivery
      const automationDelivery = yield* AutomationMailDelivery
      const automationMails = yield* AutomationMailRepository
      const automationWakeup = yield* AutomationMailWakeup
      const subscribers = yield* SubscriberRepository
      const { withTransaction } = yield* Transactor
      const dispatcher = yield* WebhookDispatcher
      const webhookSender = yield* WebhookSender
      const automationTriggers = yield* AutomationTriggers
      const automationRunner = yield* AutomationRunner
      const mailbox = yield* Effect.serviceOption(MemoryMailbox)
      const address = server.address
      const url = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://localhost"
      const call = (method: string, path: string, options: CallOptions = {}) =>
        Effect.promise(async () => {
          const headers: Record<string, string> = { accept: "application/json", ...options.headers }
          const token = options.token === undefined ? TOKEN : options.token
          if (token !== null) headers["authorization"] = `Bearer ${token}`
          let body: string | undefined
          if (options.body !== undefined) {
            headers["content-type"] ??= "application/json"
            body = typeof options.body === "string" ? options.body : JSON.stringify(options.body)
          }
          const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
          const text = await response.text()
          let json: unknown = undefined
          try {
            json = text === "" ? undefined : JSON.parse(text)
          } catch {
            json = undefined
          }
          return { status: response.status, headers: response.headers, text, body: json }
        })
      const tokenWith = (abilities: ReadonlyArray<Ability>) =>
        tokens.create(`test ${abilities.join(",")}`, abilities).pipe(Effect.map(({ secret }) => secret), Effect.orDie)
      const mails = mailbox._tag === "Some" ? mailbox.value.sent : Effect.succeed([])
      return TestServer.of({
        url,
        call,
        tokenWith,
        runJobs: Effect.orDie(worker.drain()),
        deliver: Effect.orDie(delivery.drain()),
        deliverTransactional: Effect.orDie(transactional.drain()),
        deliverAutomationMails: Effect.orDie(automationDelivery.drain()),
        queueAutomationSends: (sends) =>
          Effect.gen(function*() {
            const queued = yield* Effect.forEach(sends, (send) =>
              Effect.gen(function*() {
                const mail = Option.getOrThrow(yield* automationMails.findByUuid(send.mailUuid as AutomationMailUuid))
                const subscriber = Option.getOrThrow(yield* subscribers.findByUuid(send.subscriberUuid as SubscriberUuid))
                return {
                  uuid: newUuid() as SendUuid,
                  mailId: mail.id as AutomationMailId,
                  runId: send.runId,
                  subscriberId: subscriber.id,
                  email: subscriber.email
                }
              }))
            const inserted = yield* withTransaction(Effect.flatMap(Effect.clockWith((clock) => clock.currentTimeMillis), (at) =>
              automationMails.queueSends(queued, new Date(at))))
            yield* automationWakeup.notify
            return inserted
          }).pipe(Effect.orDie),
        dispatchWebhooks: Effect.zipRight(dispatcher.drain, webhookSender.drain),
        runAutomations: Effect.orDie(Effect.zipRight(automationTriggers.drain(), automationRunner.drain())),
        runImports: Effect.orDie(imports.drain()),
        mails
      })
    })
  ).pipe(
    Layer.provide(Layer.merge(app, node)),
    Layer.provide(options.worker === true ? WorkerLive : Layer.empty),
    Layer.provideMerge(Layer.merge(MailroomAutomations.pipe(Layer.provideMerge(Mailroom)), MailroomWebhooks).pipe(
      Layer.provide(WebhookPayloadsLive),
      Layer.provide(NodeWebhookTransport(options.webhooks))
    )),
    Layer.provideMerge(options.mailer ?? MemoryMailer),
    Layer.provide(CsvThreadReader()),
    Layer.provide(storage(store)),
    Layer.provide(Layer.succeed(AppUrl, APP_URL)),
    Layer.provide(MarkedRenderer),
    Layer.provide(options.identity === undefined ? Layer.empty : Layer.succeed(MailIdentity, options.identity)),
    Layer.provide(options.feedback === undefined ? Layer.empty : Layer.succeed(FeedbackGate, options.feedback)),
    Layer.orDie
  )
}
