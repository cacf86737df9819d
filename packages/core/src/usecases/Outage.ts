import { Cause, Clock, Effect } from "effect"

/** The message of a failure's cause in one line: the error's message and the message of what caused it. */
export const causeMessage = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (!(error instanceof Error)) return String(error)
  const inner = (error as { readonly cause?: unknown }).cause
  const detail = inner instanceof Error && inner.message !== error.message ? `: ${inner.message}` : ""
  return `${error.message}${detail}`.replace(/\s+/g, " ")
}

/** A run of failures of one thing, logged as two lines: when it starts and when it is over. */
export interface Outage {
  /** Notes a failure: the first of a run logs one warning line (no stack trace); an interrupted attempt is not one. */
  readonly failed: (cause: Cause.Cause<unknown>) => Effect.Effect<void>
  /** Notes a success: ends a run of failures with one line saying how long it lasted. */
  readonly ok: Effect.Effect<void>
}

/** An Outage of `what` (e.g. "Campaign delivery"); its lines say what failed and, at the end, for how long. */
export const makeOutage = (what: string): Outage => {
  let since: number | null = null
  let failures = 0
  return {
    failed: (cause) =>
      Effect.gen(function*() {
        if (Cause.isInterrupted(cause)) return
        failures++
        if (since !== null) return
        since = yield* Clock.currentTimeMillis
        yield* Effect.logWarning(`${what} failed, retrying until it works: ${causeMessage(cause)}`)
      }),
    ok: Effect.suspend(() => {
      if (since === null) return Effect.void
      const started = since
      const count = failures
      since = null
      failures = 0
      return Effect.flatMap(Clock.currentTimeMillis, (at) =>
        Effect.logInfo(`${what} works again after ${((at - started) / 1000).toFixed(1)} s (${count} failed attempts)`))
    })
  }
}

/**
 * Runs `effect` until it succeeds: each attempt is uninterruptible (a write is never cut in half), failures are noted
 * on `outage` (unless interruption took part: a stop in progress) and retried after a pause growing from 100 ms to 2 s; interruption is honoured between attempts.
 */
export const untilItWorks = <A>(effect: Effect.Effect<A, unknown>, outage: Outage): Effect.Effect<A> =>
  Effect.gen(function*() {
    let pause = 100
    for (;;) {
      const exit = yield* Effect.uninterruptible(Effect.exit(effect))
      if (exit._tag === "Success") {
        yield* outage.ok
        return exit.value
      }
      if (Cause.isInterruptedOnly(exit.cause)) return yield* Effect.interrupt
      // an attempt cut short by a shutdown is retried (or the sleep ends it) without a warning
      yield* outage.failed(exit.cause)
      yield* Effect.sleep(pause)
      pause = Math.min(pause * 2, 2_000)
    }
  })
