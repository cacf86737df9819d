import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, FiberId, Logger, LogLevel } from "effect"
import { makeOutage } from "../src/usecases/Outage.js"

/** Runs `effect` and returns the lines it logged at warning level and above. */
const warnings = <A>(effect: Effect.Effect<A>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (LogLevel.greaterThanEqual(logLevel, LogLevel.Warning)) lines.push(String(message))
    })
    yield* effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
    return lines
  })

describe("Outage", () => {
  it.effect("logs the first failure of a run, not the ones after it", () =>
    Effect.gen(function*() {
      const outage = makeOutage("Recording deliveries")
      const lines = yield* warnings(Effect.gen(function*() {
        yield* outage.failed(Cause.fail(new Error("database is locked")))
        yield* outage.failed(Cause.fail(new Error("database is locked")))
      }))
      expect(lines).toEqual(["Recording deliveries failed, retrying until it works: database is locked"])
    }))

  it.effect("does not call a stop in progress a failure: causes with interruption in them are not logged", () =>
    Effect.gen(function*() {
      const outage = makeOutage("Recording deliveries")
      const stopped = Cause.interrupt(FiberId.make(95, 0))
      const both = Cause.parallel(stopped, Cause.interrupt(FiberId.make(103, 0)))
      const lines = yield* warnings(Effect.gen(function*() {
        yield* outage.failed(stopped)
        yield* outage.failed(both)
        yield* outage.failed(Cause.sequential(Cause.fail(new Error("cut short")), stopped))
      }))
      expect(lines).toEqual([])
    }))
})
