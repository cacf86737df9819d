import { Deferred, Duration, Effect, Option } from "effect"
import { makeOutage } from "./Outage.js"
import { WorkSignal } from "./WorkSignal.js"

/** The longest an idle worker waits between polls once it has slowed down (`maxIdle` of the workers). */
export const SLOWEST_IDLE_POLL = Duration.seconds(2)

/** The wait after `empty` empty polls in a row: `base` doubled each time, at most `most` (milliseconds). */
export const idleWait = (base: number, most: number, empty: number): number => Math.min(most, base * 2 ** Math.min(empty, 16))

/**
 * Runs a worker's `step` forever: after a step that found nothing to do it waits `idle` (or what the step asks for
 * when it returns a Duration). With `maxIdle`, and a WorkSignal in the context, each further empty step doubles the
 * wait up to `maxIdle`, and a commit in this process (the signal) ends such a longer wait at once: an idle server
 * hardly polls, and work made here is still picked up at once. A failing step (the database unreachable, say) is
 * logged as one line when the trouble starts and one when it is over, never a stack trace per poll, and tried again
 * after a pause growing to 30 s.
 */
export const pollForever = (
  what: string,
  step: Effect.Effect<number | Duration.Duration, unknown>,
  idle: Duration.DurationInput,
  maxIdle?: Duration.DurationInput
): Effect.Effect<never> => {
  const outage = makeOutage(what)
  const base = Duration.toMillis(Duration.decode(idle))
  const most = maxIdle === undefined ? base : Math.max(base, Duration.toMillis(Duration.decode(maxIdle)))
  let pause = 1_000
  let empty = 0
  return Effect.flatMap(Effect.serviceOption(WorkSignal), (signal) => {
    const slowsDown = Option.isSome(signal) && most > base
    /** The wait after an empty step: longer each time, cut short by a nudge taken before the step. */
    const wait = (nudge: Deferred.Deferred<void> | null) => {
      const millis = slowsDown ? idleWait(base, most, empty++) : base
      if (nudge === null || millis <= base) return Effect.sleep(millis)
      return Effect.raceFirst(Effect.sleep(millis), Effect.andThen(Deferred.await(nudge), () => (empty = 0)))
    }
    const once = Effect.gen(function*() {
      const nudge = slowsDown && Option.isSome(signal) ? yield* signal.value.current : null
      const result = yield* step
      pause = 1_000
      yield* outage.ok
      if (Duration.isDuration(result)) {
        empty = 0
        return yield* Effect.sleep(result)
      }
      if (result === 0) return yield* wait(nudge)
      empty = 0
    }).pipe(
      Effect.catchAllCause((cause) =>
        Effect.gen(function*() {
          yield* outage.failed(cause)
          yield* Effect.sleep(pause)
          pause = Math.min(pause * 2, 30_000)
        })
      )
    )
    return Effect.forever(once)
  })
}
