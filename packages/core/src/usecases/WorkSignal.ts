import { Deferred, Effect } from "effect"

/**
 * Tells this process's polling workers that a transaction committed here (new work may be waiting for one of them), so
 * that a worker which has slowed its polling while idle looks again at once. Workers of other processes do not hear
 * it and find the work at their next poll.
 */
export class WorkSignal extends Effect.Service<WorkSignal>()("@mailroom/WorkSignal", {
  effect: Effect.gen(function*() {
    let nudge = yield* Deferred.make<void>()
    return {
      /** Something was committed: wakes every worker waiting on the current nudge. */
      notify: Effect.suspend(() => {
        const fired = nudge
        return Effect.flatMap(Deferred.make<void>(), (next) => {
          nudge = next
          return Deferred.succeed(fired, undefined)
        })
      }).pipe(Effect.asVoid),
      /** The nudge to wait on: taken before a poll, so a commit during the poll still wakes the wait after it. */
      current: Effect.sync(() => nudge)
    } as const
  })
}) {}
