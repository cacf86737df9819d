import type { NewEvent } from "../../events/NewEvent.js"
import type { MemoryState } from "./MemoryState.js"

/** Records events in the in-memory outbox (undone with the transaction they belong to). */
export const recordMemoryEvents = (state: MemoryState, events: ReadonlyArray<NewEvent>): void => {
  for (const event of events) {
    const id = state.nextId("events")
    state.tables.events.set(id, { ...event, id })
  }
}
