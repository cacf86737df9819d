import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { WorkSignal } from "@mailroom/core"
import { Effect, Option } from "effect"

/** Methods whose success may have given the workers something to do. */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * After a write answered with success, tells this process's workers (WorkSignal) to look for work at once: a campaign
 * sent, a mail queued or an import started is picked up now, even by a worker that slowed its polling while idle.
 */
export const wakeWorkers = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    WRITES.has(request.method)
      ? Effect.tap(app, (response) =>
        response.status < 400
          ? Effect.flatMap(Effect.serviceOption(WorkSignal), Option.match({ onNone: () => Effect.void, onSome: (signal) => signal.notify }))
          : Effect.void)
      : app)
