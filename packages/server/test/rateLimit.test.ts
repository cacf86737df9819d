import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus } from "./expectations.js"
import { TestServer, TestServerLive } from "./TestServer.js"

/** Waits for the next minute when fewer than 5 s of this one are left: the limit counts per calendar minute. */
const stayInOneMinute = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, new Date().getUTCSeconds() > 55 ? 6_000 : 0)))

describe("rate limiting per token (RATE_LIMIT_PER_MINUTE=5)", () => {
  layer(TestServerLive("sqlite", { clientLimits: { perMinute: 5, inFlight: 2 } }), { excludeTestServices: true })((it) => {
    it.effect("the 6th /api request of a token in a minute answers 429 with Retry-After; other tokens and public links go on", () =>
      Effect.gen(function*() {
        const { call, tokenWith, url } = yield* TestServer
        const other = yield* tokenWith(["read"])
        yield* stayInOneMinute
        const answers = yield* Effect.forEach(Array.from({ length: 7 }), () => call("GET", "/api/templates"), { concurrency: 7 })
        const statuses = answers.map((r) => r.status).sort()
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
        const limited = answers.find((r) => r.status === 429)!
        expectMessageOnly(limited, 429)
        const retryAfter = Number(limited.headers.get("retry-after"))
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(60)
        expectStatus(yield* call("GET", "/api/templates", { token: other }), 200)
        const page = yield* Effect.promise(() => fetch(`${url}/t/c/x/1/x`))
        expect(page.status).toBe(404)
      }))

    it.effect("one token is one client whatever the spelling of its scheme: 'bearer' or 'BEARER' do not buy more requests", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const token = yield* tokenWith(["read"])
        yield* stayInOneMinute
        const spellings = ["Bearer", "bearer", "BEARER"]
        const answers = yield* Effect.forEach(
          Array.from({ length: 6 }, (_, i) => spellings[i % 3]),
          (scheme) => call("GET", "/api/templates", { token: null, headers: { authorization: `${scheme} ${token}` } })
        )
        expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429])
      }))
  })
})
