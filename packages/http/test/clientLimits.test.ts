import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientLimits } from "../src/clientLimits.js"

/** The status `app` answers a GET /api/templates with `authorization`. */
const statusOf = (app: ReturnType<ReturnType<typeof clientLimits>>, authorization: string) =>
  app.pipe(
    Effect.provideService(
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(new Request("http://localhost/api/templates", { headers: { authorization } }))
    ),
    Effect.map((response) => response.status)
  )

/** Waits for the next minute when fewer than 15 s of this one are left (rate limits count per calendar minute). */
const withinOneMinute = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, new Date().getUTCSeconds() > 45 ? 16_000 : 0)))

describe("clientLimits", () => {
  it.live("remembers at most 10,000 idle clients: a flood of made-up tokens forgets the oldest instead of growing", () =>
    Effect.gen(function*() {
      yield* withinOneMinute
      const app = clientLimits({ perMinute: 1, inFlight: 2 })(Effect.succeed(HttpServerResponse.empty({ status: 204 })))
      expect(yield* statusOf(app, "Bearer first-token")).toBe(204)
      expect(yield* statusOf(app, "Bearer first-token")).toBe(429)
      for (let i = 0; i < 10_000; i++) expect(yield* statusOf(app, `Bearer made-up-${i}`)).toBe(204)
      // forgotten with its count: the map stayed at 10,000 clients
      expect(yield* statusOf(app, "Bearer first-token")).toBe(204)
    }), 60_000)

  it.live("a client is its token's first 128 characters: a 16 KB header is not kept, nor a new client each time", () =>
    Effect.gen(function*() {
      yield* withinOneMinute
      const app = clientLimits({ perMinute: 1, inFlight: 2 })(Effect.succeed(HttpServerResponse.empty({ status: 204 })))
      const long = "x".repeat(128)
      expect(yield* statusOf(app, `Bearer ${long}${"a".repeat(16_000)}`)).toBe(204)
      expect(yield* statusOf(app, `Bearer ${long}${"b".repeat(16_000)}`)).toBe(429)
    }))
})
