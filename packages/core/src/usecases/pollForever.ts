import { Deferred, Duration, Effect, Option } from "effect"
import { makeOutage } from "./Outage.js"
import { WorkSignal, type WorkTopic } from "./WorkSignal.js"

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
 * after a pause growing to 30 s. With a `topic`, work of that kind made in this process (`WorkSignal.wake`) ends any
 * wait, the regular pause included.
 */
export const pollForever = (
  what: string,
  step: Effect.Effect<number | Duration.Duration, unknown>,
  idle: Duration.DurationInput,
  maxIdle?: Duration.DurationInput,
  topic?: WorkTopic
): Effect.Effect<never> => {
  const outage = makeOutage(what)
  const base = Duration.toMillis(Duration.decode(idle))
  const most = maxIdle === undefined ? base : Math.max(base, Duration.toMillis(Duration.decode(maxIdle)))
  let pause = 1_000
  let empty = 0
  return Effect.flatMap(Effect.serviceOption(WorkSignal), (signal) => {
    const slowsDown = Option.isSome(signal) && most > base
    /**
     * The wait after an empty step: longer each time, cut short by a nudge taken before the step (a commit ends only a
     * longer wait than the regular one, or a busy process would poll at every commit; work of the topic ends any).
     */
    const wait = (nudge: Deferred.Deferred<void> | null, urgent: Deferred.Deferred<void> | null) => {
      const millis = slowsDown ? idleWait(base, most, empty++) : base
      const wakers = [...(nudge !== null && millis > base ? [nudge] : []), ...(urgent === null ? [] : [urgent])]
      if (wakers.length === 0) return Effect.sleep(millis)
      return Effect.raceAll([Effect.sleep(millis), ...wakers.map((waker) => Effect.andThen(Deferred.await(waker), () => (empty = 0)))])
    }
    const once = Effect.gen(function*() {
      const nudge = slowsDown && Option.isSome(signal) ? yield* signal.value.current : null
      const urgent = topic !== undefined && Option.isSome(signal) ? yield* signal.value.currentFor(topic) : null
      const result = yield* step
      pause = 1_000
      yield* outage.ok
      if (Duration.isDuration(result)) {
        empty = 0
        return yield* Effect.sleep(result)
      }
      if (result === 0) return yield* wait(nudge, urgent)
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
