import { Context, Duration, type Effect, type Option } from "effect"
import type { DomainEvent } from "./DomainEvent.js"
import type { EventPosition } from "./EventPosition.js"
import type { NewEvent } from "./NewEvent.js"

/**
 * How far after a prune's `before` an event may be dated and still be taken as recent: one dated later came from a
 * clock that ran ahead, and does not keep the events recorded after it from being pruned.
 */
export const PRUNE_CLOCK_SLACK = Duration.days(30)

/** A batch of events read for a consumer, and the position to save once they are handled. */
export interface EventBatch {
  readonly events: ReadonlyArray<DomainEvent>
  readonly next: EventPosition
}

/**
 * The outbox: events recorded in the same transaction as the changes they describe (repositories record their own
 * writes' events; `append` is for the rest), read by named consumers, each with a durable position.
 *
 * Reads return only events whose transaction is final and that no later commit can precede: on Postgres, events of
 * transactions older than the oldest one still running, in (transaction, id) order, so a late commit is never
 * skipped; on SQLite and in memory (one writer at a time) simply in id order.
 */
export class EventOutbox extends Context.Tag("@mailroom/EventOutbox")<EventOutbox, {
  /** Records events in the current transaction. */
  readonly append: (events: ReadonlyArray<NewEvent>) => Effect.Effect<void>
  /**
   * Takes the consumer's position for the current transaction (creating it at `start` or at the end of the outbox) and
   * reads up to `limit` events after it; none when another worker holds the consumer. Call inside a transaction.
   */
  readonly claim: (consumer: string, options: { readonly limit: number; readonly start: "beginning" | "end" }) => Effect.Effect<Option.Option<EventBatch>>
  /** Saves the consumer's position (in the claiming transaction). */
  readonly advance: (consumer: string, position: EventPosition) => Effect.Effect<void>
  /** The consumer's position; none when it never ran. */
  readonly position: (consumer: string) => Effect.Effect<Option.Option<EventPosition>>
  /** Events after `position` (final ones only, as `claim` reads them), without a consumer: for tests and live streams. */
  readonly read: (after: EventPosition, limit: number) => Effect.Effect<EventBatch>
  /** The position after every event recorded so far that no running transaction can precede (a live reader's start). */
  readonly end: Effect.Effect<EventPosition>
  /**
   * Deletes events older than `before` that every consumer has read, from the oldest on up to the first event dated at
   * or after `before` (within PRUNE_CLOCK_SLACK of it; events are recorded in time order); how many.
   */
  readonly prune: (before: Date) => Effect.Effect<number>
}>() {}
