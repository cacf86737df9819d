import { Duration, Effect, Option } from "effect"
import { newUuid, type SendId } from "../domain/Ids.js"
import { MailroomMetrics, type MailKind } from "../metrics/MailroomMetrics.js"
import { type DeliveryResult, SendRepository } from "../ports/SendRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { DeliveryOptions } from "./DeliveryOptions.js"
import { pump } from "./deliveryPump.js"
import { now } from "./now.js"
import { makeOutage, untilItWorks } from "./Outage.js"
import { idleWait, pollForever, SLOWEST_IDLE_POLL } from "./pollForever.js"
import { sendLeases } from "./sendLeases.js"

/** How long a woken pump waits for more sends before it claims (so that a busy queue makes batches, not one claim a send). */
const GATHER = Duration.millis(20)

/** A claim of pending sends: when, until when the lease holds, how many at most and for whom. */
export interface QueueClaim {
  readonly now: Date
  readonly leaseUntil: Date
  readonly limit: number
  readonly owner: string
}

/** What a queue of pending sends (transactional mails, automation mails) delivers with. */
export interface QueueDeliveryOptions<A extends { readonly send: { readonly id: SendId } }, B extends { readonly result: DeliveryResult }> {
  /** Names the spans (`<name>.deliverDue`, `<name>.drain`). */
  readonly name: string
  /** What the mails are, for the mail counters. */
  readonly kind: MailKind
  /** Names the log lines of the delivery loop ("Transactional delivery"). */
  readonly loop: string
  /** Names the log lines of its recording ("Recording transactional deliveries"). */
  readonly recording: string
  /** Claims up to `limit` due sends with what delivering them needs; none when nothing is due. */
  readonly claim: (claim: QueueClaim) => Effect.Effect<ReadonlyArray<A>, unknown>
  /** Mails one claimed send; its outcome (never fails). */
  readonly deliver: (item: A) => Effect.Effect<B>
  /** Writes a group of outcomes (in one transaction, retried until the store takes it). */
  readonly record: (outcomes: ReadonlyArray<B>) => Effect.Effect<void, unknown>
  /** Waits until this process queues a send or `timeout` has passed. */
  readonly wakeup: { readonly wait: (timeout: Duration.DurationInput) => Effect.Effect<void> }
}

/**
 * The delivery loop of a queue of sends: claimed in batches under a lease owned by this process, delivered and
 * recorded through the pump (at most `concurrency` handed over and not recorded: the crash bound), woken at once when
 * this process queues a send, else polling.
 */
export const makeQueueDelivery = <A extends { readonly send: { readonly id: SendId } }, B extends { readonly result: DeliveryResult }>(config: QueueDeliveryOptions<A, B>) =>
  Effect.gen(function*() {
    const sends = yield* SendRepository
    const { withTransaction } = yield* Transactor
    const options = yield* DeliveryOptions
    const owner = newUuid()
    const storage = makeOutage(config.recording)
    const leaseMillis = Duration.toMillis(options.lease)

    const pollMillis = Duration.toMillis(options.pollInterval)
    const slowestMillis = Math.max(pollMillis, Duration.toMillis(SLOWEST_IDLE_POLL))

    /**
     * The next claimed sends, up to `room`. When nothing is due: none, or with `wait` the next ones once this process
     * queues a send or the poll interval has passed (so one pump keeps running while sends come). Each further empty
     * claim doubles the interval up to SLOWEST_IDLE_POLL, so an idle queue hardly polls; a send queued by this process
     * still wakes it at once, and one queued by another process waits at most that long.
     */
    const claim = (room: number, wait: boolean) =>
      Effect.gen(function*() {
        for (let empty = 0;; empty++) {
          const at = yield* now
          const claimed = yield* config.claim({ now: at, leaseUntil: new Date(at.getTime() + leaseMillis), limit: room, owner })
          if (claimed.length > 0) {
            yield* storage.ok
            return Option.some(claimed)
          }
          if (!wait) return Option.none<ReadonlyArray<A>>()
          yield* config.wakeup.wait(idleWait(pollMillis, slowestMillis, empty))
          // a moment for the sends queued meanwhile, so that a busy queue makes batches, not one claim per send
          yield* Effect.sleep(GATHER)
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.as(storage.failed(cause), Option.none<ReadonlyArray<A>>())))

    /** Delivers due sends until none is left (or, with `wait`, for as long as it runs); how many it recorded. */
    const deliver = (wait: boolean) =>
      Effect.map(pump({
        concurrency: options.concurrency,
        batchSize: options.batchSize,
        claim: (room) => claim(room, wait),
        deliver: (item: A) => Effect.tap(config.deliver(item), (outcome) => MailroomMetrics.countMail(config.kind, outcome.result._tag)),
        record: (outcomes: ReadonlyArray<B>) => untilItWorks(withTransaction(config.record(outcomes)), storage),
        recordLinger: options.recordLinger,
        ...sendLeases<A>(sends, { owner, leaseMillis, storage }),
        stopped: () => false,
        watch: Effect.succeed(false),
        watchEvery: options.pollInterval
      }), (result) => result.recorded)

    /** Delivers every due send; how many outcomes it recorded. */
    const deliverDue = Effect.fn(`${config.name}.deliverDue`)(function*() {
      return yield* deliver(false)
    })

    /** Delivers until nothing is due (tests, one-shot tools); how many outcomes were recorded. */
    const drain = Effect.fn(`${config.name}.drain`)(function*() {
      let total = 0
      for (let recorded = yield* deliverDue(); recorded > 0; recorded = yield* deliverDue()) total += recorded
      return total
    })

    /**
     * Delivers forever with one long-lived pump: at once when this process queues a send, else at every poll interval
     * (a pump stopped by a storage failure starts again after a pause); the server forks it, `mailroom worker` runs it.
     */
    const run = pollForever(config.loop, Effect.as(deliver(true), options.pollInterval), options.pollInterval)

    return { deliverDue, drain, run } as const
  })
