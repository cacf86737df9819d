import type { HttpServerRequest } from "@effect/platform"

/** A request's connection, as far as knowing when its client leaves goes. */
export interface ClientConnection {
  readonly destroyed?: boolean
  once(event: "close", listener: () => void): unknown
  off(event: "close", listener: () => void): unknown
}

/** The connection of a request on Node (`source.socket`), when the platform exposes it. */
export const clientConnection = (request: HttpServerRequest.HttpServerRequest): ClientConnection | undefined => {
  const socket = (request as { readonly source?: { readonly socket?: unknown } }).source?.socket as Partial<ClientConnection> | undefined
  return socket !== undefined && typeof socket.once === "function" && typeof socket.off === "function" ? (socket as ClientConnection) : undefined
}

/**
 * Calls `leave` once, when the connection closes before `stop` is called (at once if it is closed already); `stop`
 * removes the listener. What a request holds for its client is given back by `leave` even while the request itself is
 * still running: the platform interrupts a request whose client left, but not inside an uninterruptible region, and
 * requests cut off by a browser leaving a page were seen never to end.
 */
export const onClientLeaving = (connection: ClientConnection | undefined, leave: () => void): (() => void) => {
  if (connection === undefined) return () => {}
  if (connection.destroyed === true) {
    leave()
    return () => {}
  }
  connection.once("close", leave)
  return () => {
    connection.off("close", leave)
  }
}
