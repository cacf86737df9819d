import { Deferred, Effect, FiberId, Option } from "effect"

/** Work that one kind of worker does: it is told the moment such work is made in this process. */
export type WorkTopic = "imports" | "campaigns"

/**
 * Tells this process's polling workers that a transaction committed here (new work may be waiting for one of them), so
 * that a worker which has slowed its polling while idle looks again at once; and tells one kind of worker that work
 * for it was made here (an import or a campaign started), which ends even its regular pause. Workers of other
 * processes hear neither and find the work at their next poll.
 */
export class WorkSignal extends Effect.Service<WorkSignal>()("@mailroom/WorkSignal", {
  effect: Effect.gen(function*() {
    let nudge = yield* Deferred.make<void>()
    const topical = new Map<WorkTopic, Deferred.Deferred<void>>()
    const topicNudge = (topic: WorkTopic) => {
      let current = topical.get(topic)
      if (current === undefined) topical.set(topic, current = Deferred.unsafeMake<void>(FiberId.none))
      return current
    }
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
      current: Effect.sync(() => nudge),
      /** Work for `topic`'s worker was committed here: wakes it, whatever its pause. */
      wake: (topic: WorkTopic) =>
        Effect.suspend(() => {
          // no nudge taken since the last wake: no worker waits, and the next one takes a fresh nudge
          const fired = topical.get(topic)
          topical.delete(topic)
          return fired === undefined ? Effect.void : Deferred.succeed(fired, undefined)
        }).pipe(Effect.asVoid),
      /** The nudge `topic`'s worker waits on, taken before its poll like `current`. */
      currentFor: (topic: WorkTopic) => Effect.sync(() => topicNudge(topic))
    }
  })
}) {}

/** Wakes `topic`'s worker in this process, when there is a WorkSignal (an embedding may provide none). */
export const wakeWorker = (topic: WorkTopic): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(WorkSignal), Option.match({ onNone: () => Effect.void, onSome: (signal) => signal.wake(topic) }))
