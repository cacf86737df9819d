import { Config, type Option, type Redacted } from "effect"

/** The runtime contract of `npm start`, read from the environment. */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  readonly apiToken: Option.Option<Redacted.Redacted>
  readonly appUrl: string
  readonly logRequests: boolean
  /** SMTP server for outgoing mail; null writes .eml files to `outboxDirectory` instead. */
  readonly smtpUrl: string | null
  readonly outboxDirectory: string
  /** Run the job worker inside the server process (WORKERS=false leaves jobs to `mailroom worker` processes). */
  readonly workers: boolean
}

/** Reads PORT, HOST, DATABASE_URL, API_TOKEN, APP_URL, LOG_REQUESTS, SMTP_URL, OUTBOX_DIR and WORKERS, with defaults. */
export const ServerConfig: Config.Config<ServerConfig> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  databaseUrl: Config.string("DATABASE_URL").pipe(Config.withDefault("sqlite:./data/mailroom.db")),
  apiToken: Config.option(Config.redacted("API_TOKEN")),
  appUrl: Config.option(Config.string("APP_URL")),
  logRequests: Config.boolean("LOG_REQUESTS").pipe(Config.withDefault(true)),
  smtpUrl: Config.string("SMTP_URL").pipe(Config.withDefault(""), Config.map((url) => url.trim() || null)),
  outboxDirectory: Config.string("OUTBOX_DIR").pipe(Config.withDefault("./data/outbox")),
  workers: Config.boolean("WORKERS").pipe(Config.withDefault(true))
}).pipe(
  Config.map(({ appUrl, ...config }) => ({
    ...config,
    appUrl: appUrl._tag === "Some" ? appUrl.value.replace(/\/+$/, "") : `http://${config.host}:${config.port}`
  }))
)
