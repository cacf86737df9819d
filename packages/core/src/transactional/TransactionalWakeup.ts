import { type Duration, Effect, Queue } from "effect"

/**
 * Tells this process's transactional delivery that a mail was queued, so it goes out at once instead of at the next
 * poll (other processes find it by polling).
 */
export class TransactionalWakeup extends Effect.Service<TransactionalWakeup>()("@mailroom/TransactionalWakeup", {
  effect: Effect.map(Queue.sliding<void>(1), (queue) => ({
    /** A mail is waiting. */
    notify: Queue.offer(queue, undefined).pipe(Effect.asVoid),
    /**
     * Waits until `notify` or until `timeout` has passed; interruptible even inside an uninterruptible region (a
     * delivery pump's claim), where the timeout could not otherwise stop the wait.
     */
    wait: (timeout: Duration.DurationInput) => Effect.interruptible(Queue.take(queue).pipe(Effect.timeout(timeout), Effect.ignore))
  }))
}) {}
