import { Chunk, Clock, Duration, Effect, Option, Stream } from "effect"
import { Transactor } from "../ports/Transactor.js"
import { pollForever, SLOWEST_IDLE_POLL } from "../usecases/pollForever.js"
import type { DomainEvent } from "./DomainEvent.js"
import { EventOutbox } from "./EventOutbox.js"
import { type EventPosition, isBefore, START } from "./EventPosition.js"

/** How a durable consumer reads the outbox. */
export interface ConsumerOptions {
  /** Events handed to the handler at once (default 500). */
  readonly batchSize?: number
  /** Where a consumer that never ran starts: every recorded event, or only those recorded from now on (default). */
  readonly start?: "beginning" | "end"
  /** How long an idle consumer waits before it looks again (default 200 ms). */
  readonly idle?: Duration.DurationInput
  /**
   * Whether the handler would do anything now (a webhook enabled, an automation started). When it says no, the
   * consumer moves past every event already recorded without reading them: an import of a million subscribers
   * records millions of events that nobody has to decode.
   */
  readonly interested?: Effect.Effect<boolean>
  /**
   * How often, at most, a consumer that is not interested moves past the recorded events (default 1 s), and only when
   * some were recorded since its last move (one look at the outbox's end tells); between those times it only asks
   * `interested`, outside any transaction. Each move is a transaction (8 statements on Postgres)
   * whose commit wakes the other workers, and every commit of a busy server woke it.
   */
  readonly uninterestedMove?: Duration.DurationInput
}

/** The default `uninterestedMove`. */
const UNINTERESTED_MOVE = Duration.seconds(1)

/** Handles a batch of events; runs in the transaction that saves the consumer's position. */
export type EventHandler<E, R> = (events: ReadonlyArray<DomainEvent>) => Effect.Effect<void, E, R>

/**
 * Durable event consumers. Each named consumer reads the outbox from its own saved position, in commit order, and its
 * handler runs in the same transaction that moves the position: what the handler writes to the store happens exactly
 * once; anything else it does happens at least once (again after a crash before the commit). Several processes on one
 * Postgres share a consumer without handling an event twice: one holds it per batch, the others skip it.
 */
export class EventConsumers extends Effect.Service<EventConsumers>()("@mailroom/EventConsumers", {
  effect: Effect.gen(function*() {
    const outbox = yield* EventOutbox
    const { withTransaction } = yield* Transactor

    /** When each consumer that was not interested last moved past the recorded events (ms). */
    const moved = new Map<string, number>()
    /** The end of the outbox each such consumer last moved to: until the end moves, there is nothing to move past. */
    const movedTo = new Map<string, EventPosition>()

    /** Handles the next batch of the consumer's events; how many (0: none waiting, or another worker holds it). */
    const step = Effect.fn("EventConsumers.step")(function*<E, R>(
      consumer: string,
      handler: EventHandler<E, R>,
      options: ConsumerOptions = {}
    ) {
      const idle = options.interested !== undefined && !(yield* options.interested)
      if (idle) {
        const at = yield* Clock.currentTimeMillis
        const last = moved.get(consumer)
        if (last !== undefined && at - last < Duration.toMillis(options.uninterestedMove ?? UNINTERESTED_MOVE)) return 0
        moved.set(consumer, at)
        // one statement outside any transaction instead of a transaction of five when nothing was recorded since
        const reached = movedTo.get(consumer)
        if (reached !== undefined && !isBefore(reached, yield* outbox.end)) return 0
      }
      let movedPast: EventPosition | null = null
      const handled = yield* withTransaction(Effect.gen(function*() {
        movedPast = null
        if (idle) {
          // asked again after reading the end, so an event recorded after a webhook or automation appeared is never
          // skipped; a consumer with something to do reads no end at all
          const end = yield* outbox.end
          if (!(yield* options.interested!)) {
            const held = yield* outbox.claim(consumer, { limit: 0, start: options.start ?? "end" })
            if (Option.isNone(held)) return 0
            if (isBefore(held.value.next, end)) yield* outbox.advance(consumer, end)
            movedPast = end
            return 0
          }
        }
        const batch = yield* outbox.claim(consumer, { limit: options.batchSize ?? 500, start: options.start ?? "end" })
        if (Option.isNone(batch) || batch.value.events.length === 0) return 0
        yield* handler(batch.value.events)
        yield* outbox.advance(consumer, batch.value.next)
        return batch.value.events.length
      }))
      if (movedPast !== null) movedTo.set(consumer, movedPast)
      return handled
    })

    /** Runs the consumer until interrupted; a failing batch is retried (with a growing pause) until it succeeds. */
    const run = <E, R>(consumer: string, handler: EventHandler<E, R>, options: ConsumerOptions = {}): Effect.Effect<never, never, R> =>
      Effect.flatMap(Effect.context<R>(), (context) =>
        pollForever(
          `Event consumer ${consumer}`,
          Effect.provide(step(consumer, handler, options), context),
          options.idle ?? Duration.millis(200),
          SLOWEST_IDLE_POLL
        ))

    /** Handles every event waiting for the consumer now (tests and tools). */
    const drain = <E, R>(consumer: string, handler: EventHandler<E, R>, options: ConsumerOptions = {}) =>
      Effect.iterate(1, { while: (handled) => handled > 0, body: () => step(consumer, handler, options) }).pipe(Effect.asVoid)

    /**
     * A live stream of events from now on (or from the first one), read as they commit; not durable: a new stream
     * starts again where it is told. For work that must survive restarts, use `run` with a consumer name.
     */
    const stream = (options: Omit<ConsumerOptions, "start"> & { readonly start?: "beginning" | "end" } = {}): Stream.Stream<DomainEvent> =>
      Stream.unwrap(Effect.gen(function*() {
        let position = options.start === "beginning" ? START : yield* outbox.end
        const idle = options.idle ?? Duration.millis(200)
        return Stream.repeatEffectChunk(Effect.gen(function*() {
          const batch = yield* outbox.read(position, options.batchSize ?? 500)
          position = batch.next
          if (batch.events.length === 0) yield* Effect.sleep(idle)
          return Chunk.fromIterable(batch.events)
        }))
      }))

    return { step, run, drain, stream } as const
  })
}) {}
