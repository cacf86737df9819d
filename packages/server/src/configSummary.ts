import { importWindowRows } from "@mailroom/core"
import { Option } from "effect"
import type { ServerConfig } from "./ServerConfig.js"

/** A URL with its password (and a user name standing alone, which some write for a token) replaced by `***`. */
export const redactUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    else if (parsed.username !== "" && !/^postgres(ql)?:$/.test(parsed.protocol)) parsed.username = "***"
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|token|key/i.test(key)) parsed.searchParams.set(key, "***")
    }
    return parsed.toString()
  } catch {
    // not a URL (sqlite:PATH): a `user:pass@` part, if any, still goes
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, "//$1:***@")
  }
}

const set = (value: Option.Option<unknown> | string | null) =>
  (Option.isOption(value) ? Option.isSome(value) : value !== null && value !== "") ? "set" : "unset"

/**
 * The configuration the server runs with, for the startup log line: every setting by its variable name, without
 * secrets (tokens shown as set or unset, passwords in URLs as `***`, DKIM keys omitted: only domain and selector).
 */
export const configSummary = (config: ServerConfig): Record<string, string> => ({
  PORT: String(config.port),
  HOST: config.host,
  DATABASE_URL: redactUrl(config.databaseUrl),
  API_TOKEN: set(config.apiToken),
  APP_URL: config.appUrl,
  SMTP_URL: config.smtpUrl === null ? `unset (mails go to ${config.outboxDirectory})` : redactUrl(config.smtpUrl),
  WORKERS: String(config.workers),
  DELIVERY_RATE: config.deliveryRate === 0 ? "0 (no limit)" : String(config.deliveryRate),
  DELIVERY_CONCURRENCY: String(config.deliveryConcurrency),
  DELIVERY_LEASE_SECONDS: String(config.deliveryLeaseSeconds),
  DELIVERY_RETRY_HOURS: String(config.deliveryRetryHours),
  SOFT_BOUNCE_LIMIT: String(config.softBounceLimit),
  BOUNCE_ADDRESS: config.bounceAddress ?? "unset",
  FEEDBACK_ID: config.feedbackId ?? "unset",
  DKIM: config.dkim.length === 0 ? "off" : config.dkim.map((key) => `${key.selector}._domainkey.${key.domain}`).join(", "),
  FEEDBACK_PROVIDERS: Object.entries(config.feedback).filter(([, check]) => check !== null).map(([name]) => name).join(", ") || "none",
  IMPORT_LEASE_SECONDS: String(config.importLeaseSeconds),
  IMPORT_BATCH_ROWS: String(config.importBatchRows),
  // the window an import begins with: whole batches, at least one
  IMPORT_WINDOW_ROWS: String(importWindowRows(config.importWindowRows, config.importBatchRows)),
  PG_PREPARED_STATEMENTS: String(config.pgPreparedStatements),
  AUTOMATION_LEASE_SECONDS: String(config.automationLeaseSeconds),
  RATE_LIMIT_PER_MINUTE: config.rateLimitPerMinute === null ? "0 (off)" : String(config.rateLimitPerMinute),
  CLIENT_CONCURRENCY: String(config.clientConcurrency),
  WEBHOOK_TIMEOUT_SECONDS: String(config.webhookTimeoutSeconds),
  WEBHOOK_RATE_WHILE_SENDING: String(config.webhookRateWhileSending),
  LOG_REQUESTS: String(config.logRequests),
  LOG_FORMAT: config.logFormat,
  LOG_LEVEL: config.logLevel,
  METRICS_TOKEN: set(config.metricsToken)
})
