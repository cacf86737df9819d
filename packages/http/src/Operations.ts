import { Context, Effect, Option, type Redacted } from "effect"

/** The outcome of the readiness checks: each check's state ("ok", else what is wrong) and whether all passed. */
export interface Readiness {
  readonly ready: boolean
  readonly checks: Readonly<Record<string, string>>
}

/** A request as the HTTP metrics see it: the matched route template (never the raw path), status and duration. */
export interface ObservedRequest {
  readonly method: string
  readonly route: string
  readonly status: number
  readonly seconds: number
}

/** What the operations routes report (/readyz, /metrics, the landing page); the server provides it. */
export interface OperationsService {
  /** Shown on the landing page. */
  readonly version: string
  /** Runs the readiness checks (database, migrations, workers). */
  readonly readiness: Effect.Effect<Readiness>
  /** Renders every metric in the Prometheus text format; none: /metrics answers 404. */
  readonly metrics: Option.Option<Effect.Effect<{ readonly contentType: string; readonly body: string }>>
  /** The token /metrics takes (METRICS_TOKEN); none: any API token with the read ability. */
  readonly metricsToken: Option.Option<Redacted.Redacted>
  /** Told of every request once it is answered (request counts and latencies); none: requests are not timed. */
  readonly observeRequest: Option.Option<(request: ObservedRequest) => void>
}

/**
 * Operations of the HTTP server. The default (an embedded HttpLive without the server's layer) is always ready, has
 * no /metrics and times nothing.
 */
export class Operations extends Context.Reference<Operations>()("@mailroom/http/Operations", {
  defaultValue: (): OperationsService => ({
    version: "unknown",
    readiness: Effect.succeed({ ready: true, checks: {} }),
    metrics: Option.none(),
    metricsToken: Option.none(),
    observeRequest: Option.none()
  })
}) {}
