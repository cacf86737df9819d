import type { HttpApp, HttpServerRequest } from "@effect/platform"
import { HttpServerResponse } from "@effect/platform"
import { Effect, Fiber } from "effect"

interface Closable {
  readonly destroyed?: boolean
  once(event: "close", listener: () => void): unknown
  off(event: "close", listener: () => void): unknown
}

/** The connection of a request on Node (`source.socket`), when the platform exposes it. */
const connectionOf = (request: HttpServerRequest.HttpServerRequest): Closable | undefined => {
  const socket = (request as { readonly source?: { readonly socket?: unknown } }).source?.socket as Partial<Closable> | undefined
  return socket !== undefined && typeof socket.once === "function" && typeof socket.off === "function" ? (socket as Closable) : undefined
}

/** What a request whose client left is answered (nobody reads it): nginx's "client closed request". */
const LEFT = HttpServerResponse.empty({ status: 499 })

/**
 * Runs a request in a fiber of its own and answers as soon as it ends or its client's connection closes, whichever
 * comes first; in the second case the request's fiber is interrupted in the background. So whatever holds a resource
 * for the request (a client's turn) gets it back when the client leaves, even when the request itself would hang:
 * requests cut off by a browser leaving a page were seen never to end.
 */
export const untilClientLeaves = (request: HttpServerRequest.HttpServerRequest, app: HttpApp.Default): HttpApp.Default => {
  const connection = connectionOf(request)
  if (connection === undefined) return app
  return Effect.flatMap(Effect.forkDaemon(app), (fiber) =>
    Effect.flatMap(
      Effect.async<boolean>((resume) => {
        if (connection.destroyed === true) return resume(Effect.succeed(false))
        const ended = () => {
          connection.off("close", left)
          resume(Effect.succeed(true))
        }
        const left = () => {
          fiber.removeObserver(ended)
          resume(Effect.succeed(false))
        }
        connection.once("close", left)
        fiber.addObserver(ended)
      }),
      (finished) => (finished ? Fiber.join(fiber) : Effect.as(Fiber.interruptFork(fiber), LEFT))
    ))
}
