import { SqlClient } from "@effect/sql"
import { QueueDepths } from "@mailroom/core"
import { Operations } from "@mailroom/http"
import { Effect, Layer, Option, type Redacted } from "effect"
import { makePrometheusMetrics } from "./PrometheusMetrics.js"
import { readiness } from "./readiness.js"
import { RunningWorkers } from "./RunningWorkers.js"
import { serverVersion } from "./serverVersion.js"

/**
 * The server's Operations: readiness over its store (SqlClient when there is one) and its workers (RunningWorkers when
 * they run here), Prometheus metrics in a registry of its own, GET /metrics guarded by `metricsToken` when set.
 */
export const OperationsLive = (options: { readonly metricsToken: Option.Option<Redacted.Redacted> }): Layer.Layer<Operations, never, QueueDepths> =>
  Layer.effect(
    Operations,
    Effect.gen(function*() {
      const depths = yield* QueueDepths
      const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
      const workers = yield* Effect.serviceOption(RunningWorkers)
      const prometheus = makePrometheusMetrics(depths.read())
      return {
        version: serverVersion,
        readiness: readiness(sql, workers),
        metrics: Option.some(prometheus.render),
        metricsToken: options.metricsToken,
        observeRequest: Option.some(prometheus.observeRequest)
      }
    })
  )
