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
        Duration.isDuration(result) ? Effect.sleep(result) : result === 0 ? Effect.sleep(idle) : Effect.void
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
