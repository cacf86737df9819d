import type { FeedbackChecks } from "@mailroom/core"
import type { DkimKey } from "@mailroom/smtp"
import { Config, Option, Redacted } from "effect"

/** The runtime contract of `npm start`, read from the environment (the DKIM keys by `dkimKeys`). */
export interface ServerConfig extends EnvironmentConfig {
  /** Keys every outgoing mail is signed with (none: unsigned). */
  readonly dkim: ReadonlyArray<DkimKey>
  /** How providers' feedback webhooks are authenticated (`feedbackChecks`); none configured: they answer 404. */
  readonly feedback: FeedbackChecks
}

/** What `ServerConfig` reads from plain variables. */
export interface EnvironmentConfig {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  readonly apiToken: Option.Option<Redacted.Redacted>
  readonly appUrl: string
  /** Whether APP_URL was set (else appUrl is the listening address). */
  readonly appUrlConfigured: boolean
  readonly logRequests: boolean
  /** SMTP server for outgoing mail; null writes .eml files to `outboxDirectory` instead. */
  readonly smtpUrl: string | null
  readonly outboxDirectory: string
  /** Run the job worker inside the server process (WORKERS=false leaves jobs to `mailroom worker` processes). */
  readonly workers: boolean
  /** Most campaign mails per second over all worker processes (0 = no limit). */
  readonly deliveryRate: number
  /** Campaign mails in flight at once per worker process. */
  readonly deliveryConcurrency: number
  /** How long a claim of sends stays reserved without renewal (renewed while they wait; crash recovery time). */
  readonly deliveryLeaseSeconds: number
  /** How long a send that keeps failing temporarily is retried before it fails as a soft bounce. */
  readonly deliveryRetryHours: number
  /** Soft bounces in a row after which an address is suppressed. */
  readonly softBounceLimit: number
  /** Envelope sender of every mail (`{send}` → the send's uuid, VERP); null: the From address. */
  readonly bounceAddress: string | null
  /** Sender id of the Feedback-ID header; null: no such header. */
  readonly feedbackId: string | null
  /** How long a running import stays reserved without progress (renewed with every batch; crash recovery time). */
  readonly importLeaseSeconds: number
  /** Whether Postgres statements run as named prepared statements (off behind a pooler that cannot keep them). */
  readonly pgPreparedStatements: boolean
  /** Data rows an import writes per transaction (default 10,000). */
  readonly importBatchRows: number
  /** Data rows an import sorts by address before writing them (default 40,000 on SQLite, 0 on Postgres: CSV order). */
  readonly importWindowRows: number
  /** How long the automation scheduler holds a batch of claimed positions (crash recovery time of a step). */
  readonly automationLeaseSeconds: number
  /** `/api` requests per token and minute (null: no limit). */
  readonly rateLimitPerMinute: number | null
  /** Requests of one client handled at once; more wait their turn (default 2 on SQLite, 8 on Postgres). */
  readonly clientConcurrency: number
  /** Longest wait for a webhook endpoint's answer; a claim of deliveries is reserved three times as long. */
  readonly webhookTimeoutSeconds: number
  /** Most webhook deliveries per second and process while a campaign is sending (0: no limit). */
  readonly webhookRateWhileSending: number
  /** Log lines as JSON objects (one per line) or in the human format. */
  readonly logFormat: LogFormat
  /** Lines below this level are not logged. */
  readonly logLevel: LogLevelName
  /** The bearer token GET /metrics takes; none: any API token with the read ability. */
  readonly metricsToken: Option.Option<Redacted.Redacted>
}

/** LOG_FORMAT values. */
export type LogFormat = "json" | "pretty"
/** LOG_LEVEL values. */
export type LogLevelName = "debug" | "info" | "warn" | "error"

/** Reads the runtime contract of `npm start` from the environment (see README, Configuration), with defaults. */
export const ServerConfig: Config.Config<EnvironmentConfig> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  databaseUrl: Config.string("DATABASE_URL").pipe(Config.withDefault("sqlite:./data/mailroom.db")),
  apiToken: Config.option(Config.redacted("API_TOKEN")),
  appUrl: Config.option(Config.string("APP_URL")),
  logRequests: Config.boolean("LOG_REQUESTS").pipe(Config.withDefault(true)),
  smtpUrl: Config.string("SMTP_URL").pipe(Config.withDefault(""), Config.map((url) => url.trim() || null)),
  outboxDirectory: Config.string("OUTBOX_DIR").pipe(Config.withDefault("./data/outbox")),
  workers: Config.boolean("WORKERS").pipe(Config.withDefault(true)),
  deliveryRate: Config.integer("DELIVERY_RATE").pipe(Config.withDefault(0)),
  deliveryConcurrency: Config.integer("DELIVERY_CONCURRENCY").pipe(Config.withDefault(64)),
  deliveryLeaseSeconds: Config.integer("DELIVERY_LEASE_SECONDS").pipe(Config.withDefault(30)),
  deliveryRetryHours: Config.number("DELIVERY_RETRY_HOURS").pipe(Config.withDefault(48)),
  softBounceLimit: Config.integer("SOFT_BOUNCE_LIMIT").pipe(Config.withDefault(3)),
  bounceAddress: Config.string("BOUNCE_ADDRESS").pipe(
    Config.withDefault(""),
    Config.map((address) => address.trim() || null),
    Config.validate({
      message: "BOUNCE_ADDRESS must be an address such as bounces@example.com or bounces+{send}@example.com",
      validation: (address) => address === null || /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address)
    })
  ),
  feedbackId: Config.string("FEEDBACK_ID").pipe(
    Config.withDefault(""),
    Config.map((id) => id.trim() || null),
    Config.validate({ message: "FEEDBACK_ID may hold letters, digits, dots and dashes", validation: (id) => id === null || /^[A-Za-z0-9._-]+$/.test(id) })
  ),
  importLeaseSeconds: Config.integer("IMPORT_LEASE_SECONDS").pipe(Config.withDefault(30)),
  pgPreparedStatements: Config.boolean("PG_PREPARED_STATEMENTS").pipe(Config.withDefault(true)),
  importBatchRows: Config.integer("IMPORT_BATCH_ROWS").pipe(
    Config.validate({ message: "must be 0 (the default, 10000) or from 100 to 100000", validation: (n) => n === 0 || (n >= 100 && n <= 100_000) }),
    Config.withDefault(0)
  ),
  importWindowRows: Config.integer("IMPORT_WINDOW_ROWS").pipe(
    Config.validate({
      message: "must be 0 (rows written in the CSV's order) or from 1000 to 200000",
      validation: (n) => n === 0 || (n >= 1_000 && n <= 200_000)
    }),
    Config.option
  ),
  automationLeaseSeconds: Config.integer("AUTOMATION_LEASE_SECONDS").pipe(
    Config.withDefault(60),
    Config.validate({ message: "AUTOMATION_LEASE_SECONDS must be 1 or more", validation: (n) => n >= 1 })
  ),
  rateLimitPerMinute: Config.integer("RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(0),
    Config.validate({ message: "RATE_LIMIT_PER_MINUTE must be 0 (no limit) or more", validation: (n) => n >= 0 }),
    Config.map((n) => (n === 0 ? null : n))
  ),
  clientConcurrency: Config.integer("CLIENT_CONCURRENCY").pipe(
    Config.withDefault(0),
    Config.validate({ message: "CLIENT_CONCURRENCY must be a positive number (0 or unset: the default)", validation: (n) => n >= 0 })
  ),
  webhookTimeoutSeconds: Config.number("WEBHOOK_TIMEOUT_SECONDS").pipe(
    Config.withDefault(10),
    Config.validate({ message: "WEBHOOK_TIMEOUT_SECONDS must be between 0.1 and 60", validation: (n) => n >= 0.1 && n <= 60 })
  ),
  webhookRateWhileSending: Config.integer("WEBHOOK_RATE_WHILE_SENDING").pipe(
    Config.withDefault(100),
    Config.validate({ message: "WEBHOOK_RATE_WHILE_SENDING must be 0 (no limit) or more", validation: (n) => n >= 0 })
  ),
  logFormat: Config.string("LOG_FORMAT").pipe(
    Config.withDefault("pretty"),
    Config.map((format) => format.trim().toLowerCase()),
    Config.validate({ message: "LOG_FORMAT must be json or pretty", validation: (f): f is LogFormat => f === "json" || f === "pretty" })
  ),
  logLevel: Config.string("LOG_LEVEL").pipe(
    Config.withDefault("info"),
    Config.map((level) => level.trim().toLowerCase()),
    Config.validate({
      message: "LOG_LEVEL must be debug, info, warn or error",
      validation: (l): l is LogLevelName => l === "debug" || l === "info" || l === "warn" || l === "error"
    })
  ),
  metricsToken: Config.option(Config.redacted("METRICS_TOKEN")).pipe(
    Config.map(Option.filter((token) => Redacted.value(token).trim() !== ""))
  )
}).pipe(
  Config.map(({ appUrl, clientConcurrency, importBatchRows, importWindowRows, ...config }) => {
    const onPostgres = config.databaseUrl.startsWith("postgres")
    return {
      ...config,
      // 13-25 % faster than 5,000 or 2,000 on both stores; reads do not wait for a batch (bench/HISTORY.md)
      importBatchRows: importBatchRows > 0 ? importBatchRows : 10_000,
      // SQLite: 27-48 % faster at 1,000,000 rows for ~20 MB; Postgres: 5-10 % slower, so in the CSV's order (bench/HISTORY.md)
      importWindowRows: Option.getOrElse(importWindowRows, () => (onPostgres ? 0 : 40_000)),
      // SQLite runs queries on the event loop: more than 2 requests of one client only interleave (bench/HISTORY.md)
      clientConcurrency: clientConcurrency > 0 ? clientConcurrency : onPostgres ? 8 : 2,
      appUrl: appUrl._tag === "Some" ? appUrl.value.replace(/\/+$/, "") : `http://${config.host}:${config.port}`,
      appUrlConfigured: appUrl._tag === "Some"
    }
  })
)
