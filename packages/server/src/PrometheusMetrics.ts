import type { ObservedRequest } from "@mailroom/http"
import { MailroomMetrics, type QueueDepth } from "@mailroom/core"
import { Effect, type Metric, Option } from "effect"
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client"

/** Prometheus metrics of one server: its own registry, rendered by GET /metrics. */
export interface PrometheusMetrics {
  /** Counts and times one answered request under its route template. */
  readonly observeRequest: (request: ObservedRequest) => void
  /** Every metric in the Prometheus text format, the queue depths read at this moment. */
  readonly render: Effect.Effect<{ readonly contentType: string; readonly body: string }>
}

/** Latency buckets of HTTP requests, in seconds. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * A registry with the HTTP request counter and latency histogram (by method, route template and status), Mailroom's
 * counters from Effect's metric registry (mails sent, failed and retried by kind; import rows; webhook deliveries), the
 * queue depths `readDepth` gives at scrape time (no series when it fails) and Node's process metrics.
 */
export const makePrometheusMetrics = (readDepth: Effect.Effect<QueueDepth>): PrometheusMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const labelNames = ["method", "route", "status"] as const
  const requests = new Counter({ name: "mailroom_http_requests_total", help: "HTTP requests answered, by method, route template and status", labelNames, registers: [registry] })
  const latency = new Histogram({ name: "mailroom_http_request_duration_seconds", help: "Time to answer HTTP requests, by method, route template and status", labelNames, buckets: BUCKETS, registers: [registry] })

  /** A Prometheus counter that reads one of Mailroom's Effect counters per label value when scraped. */
  const bridge = (name: string, help: string, label: string, counters: Readonly<Record<string, Metric.Metric.Counter<number>>>) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      collect() {
        this.reset()
        for (const [value, counter] of Object.entries(counters)) this.inc({ [label]: value }, counter.unsafeValue([]).count)
      }
    })
  bridge("mailroom_mails_sent_total", "Mails handed to the transport and accepted, by kind", "kind", MailroomMetrics.mailsSent)
  bridge("mailroom_mails_failed_total", "Mails that failed for good (refused, given up, skipped), by kind", "kind", MailroomMetrics.mailsFailed)
  bridge("mailroom_mails_retried_total", "Temporary mail failures scheduled for another try, by kind", "kind", MailroomMetrics.mailsRetried)
  bridge("mailroom_import_rows_total", "Subscriber import rows processed, by outcome", "outcome", MailroomMetrics.importRows)
  bridge("mailroom_webhook_deliveries_total", "Webhook delivery attempts, by outcome", "outcome", MailroomMetrics.webhookDeliveries)

  let depth: Option.Option<QueueDepth> = Option.none()
  /** A gauge set from the queue depths read for this scrape. */
  const gauge = (name: string, help: string, labels: ReadonlyArray<string>, set: (gauge: Gauge, depth: QueueDepth) => void) =>
    new Gauge({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      collect() {
        this.reset()
        if (Option.isSome(depth)) set(this, depth.value)
      }
    })
  gauge("mailroom_pending_sends", "Sends neither sent nor failed, by kind", ["kind"], (g, d) => {
    for (const [kind, count] of Object.entries(d.pendingSends)) g.set({ kind }, count)
  })
  gauge("mailroom_pending_jobs", "Background jobs (confirmation and test mails) neither finished nor failed", [], (g, d) => g.set(d.pendingJobs))
  gauge("mailroom_imports", "Subscriber imports waiting for a worker (queued) or being imported (running)", ["state"], (g, d) => {
    g.set({ state: "queued" }, d.imports.queued)
    g.set({ state: "running" }, d.imports.running)
  })
  gauge("mailroom_pending_webhook_deliveries", "Webhook deliveries waiting for an attempt", [], (g, d) => g.set(d.pendingWebhookDeliveries))

  return {
    observeRequest: ({ method, route, seconds, status }) => {
      const labels = { method, route, status: String(status) }
      requests.inc(labels)
      latency.observe(labels, seconds)
    },
    render: Effect.gen(function*() {
      depth = yield* readDepth.pipe(Effect.option, Effect.catchAllCause(() => Effect.succeed(Option.none<QueueDepth>())))
      const body = yield* Effect.promise(() => registry.metrics())
      return { contentType: registry.contentType, body }
    })
  }
}
