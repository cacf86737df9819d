import { type Duration, Effect, Queue } from "effect"

/**
 * Tells this process's automation mail delivery that sends were queued (the automation runner notifies it after its
 * transaction commits), so they go out at once instead of at the next poll (other processes find them by polling).
 */
export class AutomationMailWakeup extends Effect.Service<AutomationMailWakeup>()("@mailroom/AutomationMailWakeup", {
  effect: Effect.map(Queue.sliding<void>(1), (queue) => ({
    /** Sends are waiting. */
    notify: Queue.offer(queue, undefined).pipe(Effect.asVoid),
    /** Waits until `notify` or until `timeout` has passed; interruptible even inside an uninterruptible region. */
    wait: (timeout: Duration.DurationInput) => Effect.interruptible(Queue.take(queue).pipe(Effect.timeout(timeout), Effect.ignore))
  }))
}) {}
