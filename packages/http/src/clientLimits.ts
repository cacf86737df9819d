import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { afterIo } from "./afterIo.js"
import { ClientSlots } from "./ClientSlots.js"
import { clientConnection, onClientLeaving } from "./clientConnection.js"

/** How much one client may ask of the server. */
export interface ClientLimits {
  /** Requests to `/api` per token and minute (`RATE_LIMIT_PER_MINUTE`); null: no limit (the default, DECISIONS 10). */
  readonly perMinute: number | null
  /** Requests of one client handled at once (`CLIENT_CONCURRENCY`); more wait for their turn. */
  readonly inFlight: number
}

/** No rate limit; 8 requests of a client at a time. */
export const DEFAULT_CLIENT_LIMITS: ClientLimits = { perMinute: null, inFlight: 8 }

/** Clients remembered at most; past it, idle ones are forgotten oldest first (each garbage token would be one). */
const MAX_CLIENTS = 10_000

/** Longest token part of a client's key: real tokens are shorter, a 16 KB header must not be kept 10,000 times. */
const MAX_KEY_TOKEN = 128

interface Client {
  readonly slots: ClientSlots
  users: number
  /** The minute of the client's last request, which `count` is for (idle clients are forgotten in a later minute). */
  minute: number
  count: number
}

/**
 * Fairness between clients (a client is its bearer token as authentication reads it, or its address without one):
 * each has at most `inFlight` requests in the handlers at once and starts at most a few times that many per turn of
 * the event loop (`ClientSlots`), the rest wait in line, so one client with hundreds of requests in flight cannot
 * starve the others. With `perMinute`, a token's `/api` requests past that many in the current minute answer 429
 * with `Retry-After` (seconds until the next minute). Counts are per process. A client that goes away gives its turn
 * back at once, whether its request waits or runs (`onClientLeaving`), without a fiber of its own for each request (which
 * cost a POST 8 % of its CPU, bench/HISTORY.md).
 */
export const clientLimits = (limits: ClientLimits = DEFAULT_CLIENT_LIMITS) => {
  const clients = new Map<string, Client>()
  let swept = 0
  const sweep = (minute: number) => {
    if (swept === minute) return
    swept = minute
    for (const [key, client] of clients) if (client.users === 0 && client.minute < minute) clients.delete(key)
  }
  const makeRoom = () => {
    for (const [key, client] of clients) {
      if (clients.size < MAX_CLIENTS) return
      if (client.users === 0) clients.delete(key)
    }
  }
  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      // uninterruptible until the request is counted and its release is in place
      Effect.uninterruptibleMask((restore) => Effect.suspend(() => {
        const now = Date.now()
        const minute = Math.floor(now / 60_000)
        sweep(minute)
        const authorization = request.headers["authorization"]
        // the token as authentication reads it (the platform drops the scheme's 7 characters, the token is trimmed),
        // so one token sent with another prefix or trailing spaces is still one client
        const key = authorization !== undefined
          ? `token:${authorization.slice(7).trim().slice(0, MAX_KEY_TOKEN)}`
          : `address:${Option.getOrElse(request.remoteAddress, () => "unknown")}`
        let client = clients.get(key)
        if (client === undefined) {
          if (clients.size >= MAX_CLIENTS) makeRoom()
          client = { slots: new ClientSlots(limits.inFlight), users: 0, minute, count: 0 }
          clients.set(key, client)
        }
        if (client.minute !== minute) {
          client.minute = minute
          client.count = 0
        }
        if (limits.perMinute !== null && request.url.startsWith("/api/")) {
          if (++client.count > limits.perMinute) {
            const retryAfter = Math.max(1, Math.ceil((60_000 - (now % 60_000)) / 1000))
            return Effect.succeed(HttpServerResponse.unsafeJson(
              { message: `Too many requests: at most ${limits.perMinute} a minute. Try again in ${retryAfter} s.` },
              { status: 429, headers: { "retry-after": String(retryAfter) } }
            ))
          }
        }
        const current = client
        current.users++
        let ended = false
        // once, when the request ends or its client leaves (a request left running does not keep its client known)
        const end = () => {
          if (ended) return
          ended = true
          current.users--
          // kept to the end of the event loop's turn, so the client's next request this turn finds its turn budget
          if (current.users === 0 && limits.perMinute === null) {
            afterIo(() => {
              if (current.users === 0 && clients.get(key) === current) clients.delete(key)
            })
          }
        }
        const connection = clientConnection(request)
        // one listener on the connection gives both back: the client's turn and its count
        const leaving = (giveTurnBack: () => void) =>
          onClientLeaving(connection, () => {
            giveTurnBack()
            end()
          })
        return restore(current.slots.run(app, leaving)).pipe(Effect.ensuring(Effect.sync(end)))
      })))
}
