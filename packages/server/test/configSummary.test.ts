import { describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { configSummary } from "../src/configSummary.js"
import type { ServerConfig } from "../src/ServerConfig.js"

const config: ServerConfig = {
  port: 3000,
  appUrlConfigured: true,
  host: "0.0.0.0",
  databaseUrl: "postgres://mailroom:db-password-1@db.internal:5432/mailroom?sslmode=require",
  apiToken: Option.some(Redacted.make("api-token-secret-2")),
  appUrl: "https://mail.example.com",
  logRequests: true,
  smtpUrl: "smtps://apikey:smtp-password-3@smtp.example.com:465?name=mx.example.com",
  outboxDirectory: "./data/outbox",
  workers: true,
  deliveryRate: 0,
  deliveryConcurrency: 64,
  deliveryLeaseSeconds: 30,
  deliveryRetryHours: 48,
  softBounceLimit: 3,
  bounceAddress: "bounces+{send}@example.com",
  feedbackId: null,
  importLeaseSeconds: 30,
  importBatchRows: 5_000,
  importWindowRows: 12_000,
  pgPreparedStatements: true,
  automationLeaseSeconds: 60,
  rateLimitPerMinute: null,
  clientConcurrency: 8,
  webhookTimeoutSeconds: 10,
  webhookRateWhileSending: 100,
  logFormat: "json",
  logLevel: "info",
  metricsToken: Option.some(Redacted.make("metrics-token-secret-4")),
  dkim: [{ domain: "example.com", selector: "s1", privateKey: "-----BEGIN PRIVATE KEY-----\nMIIEdkim-key-secret-5\n-----END PRIVATE KEY-----" }],
  feedback: { ses: null, postmark: null, mailgun: null, sendgrid: null }
}

describe("configSummary", () => {
  it("names every setting by its variable and shows no secret: tokens set or unset, passwords ***, no DKIM key", () => {
    const summary = configSummary(config)
    const text = JSON.stringify(summary)
    for (const secret of ["db-password-1", "api-token-secret-2", "smtp-password-3", "metrics-token-secret-4", "dkim-key-secret-5", "PRIVATE KEY"]) {
      expect(text).not.toContain(secret)
    }
    expect(summary).toMatchObject({
      PORT: "3000",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://mailroom:***@db.internal:5432/mailroom?sslmode=require",
      API_TOKEN: "set",
      SMTP_URL: "smtps://apikey:***@smtp.example.com:465?name=mx.example.com",
      DKIM: "s1._domainkey.example.com",
      FEEDBACK_PROVIDERS: "none",
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
      METRICS_TOKEN: "set",
      RATE_LIMIT_PER_MINUTE: "0 (off)",
      IMPORT_WINDOW_ROWS: "10000"
    })
  })

  it("shows unset secrets as unset and where mails go without SMTP", () => {
    const summary = configSummary({
      ...config,
      databaseUrl: "sqlite:./data/mailroom.db",
      apiToken: Option.none(),
      metricsToken: Option.none(),
      smtpUrl: null,
      dkim: []
    })
    expect(summary).toMatchObject({
      DATABASE_URL: "sqlite:./data/mailroom.db",
      API_TOKEN: "unset",
      METRICS_TOKEN: "unset",
      SMTP_URL: "unset (mails go to ./data/outbox)",
      DKIM: "off"
    })
  })
})
