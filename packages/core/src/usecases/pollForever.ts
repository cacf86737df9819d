import { Duration, Effect } from "effect"
import { makeOutage } from "./Outage.js"

/**
 * Runs a worker's `step` forever: after a step that found nothing to do it waits `idle` (or what the step asks for
 * when it returns a Duration). A failing step (the database unreachable, say) is logged as one line when the trouble
 * starts and one when it is over, never a stack trace per poll, and tried again after a pause growing to 30 s.
 */
export const pollForever = (
  what: string,
  step: Effect.Effect<number | Duration.Duration, unknown>,
  idle: Duration.DurationInput
): Effect.Effect<never> => {
  const outage = makeOutage(what)
  let pause = 1_000
  return Effect.forever(
    step.pipe(
      Effect.tap(() => {
        pause = 1_000
        return outage.ok
      }),
      Effect.flatMap((result) =>
        // after work, a turn of the event loop before the next step: with a synchronous driver (SQLite) a busy loop
        // would otherwise hold off timers, sockets and every other loop of the process until it runs dry
        Duration.isDuration(result) ? Effect.sleep(result) : Effect.sleep(result === 0 ? idle : Duration.zero)
      ),
      Effect.catchAllCause((cause) =>
        Effect.gen(function*() {
          yield* outage.failed(cause)
          yield* Effect.sleep(pause)
          pause = Math.min(pause * 2, 30_000)
        })
      )
    )
  )
}
