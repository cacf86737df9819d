/**
 * Where a consumer stands in the outbox: the last event it handled, by the transaction that wrote it (`tx`, 0 where
 * the store commits one writer at a time) and its id. Events are read in (tx, id) order.
 */
export interface EventPosition {
  readonly tx: number
  readonly id: number
}

/** The position before every event. */
export const START: EventPosition = { tx: 0, id: 0 }

/** Whether position `a` comes before position `b` in commit order. */
export const isBefore = (a: EventPosition, b: EventPosition): boolean => a.tx < b.tx || (a.tx === b.tx && a.id < b.id)
