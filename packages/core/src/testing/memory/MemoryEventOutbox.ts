import { Duration, Effect, Option } from "effect"
import { DomainEvent } from "../../events/DomainEvent.js"
import { EventOutbox, PRUNE_CLOCK_SLACK } from "../../events/EventOutbox.js"
import type { EventPosition } from "../../events/EventPosition.js"
import { recordMemoryEvents } from "./memoryEvents.js"
import type { MemoryState } from "./MemoryState.js"

/** EventOutbox over the in-memory state: one writer at a time, so events are read in id order. */
export const makeMemoryEventOutbox = (state: MemoryState) => {
  const consumerRow = (name: string) => [...state.tables.eventConsumers.values()].find((row) => row.name === name)
  const lastId = () => Math.max(0, ...state.tables.events.keys())
  const read = (after: EventPosition, limit: number) => {
    const events = [...state.tables.events.values()]
      .filter((event) => event.id > after.id)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((event) => new DomainEvent(event))
    return { events, next: events.length === 0 ? after : { tx: 0, id: events[events.length - 1]!.id } }
  }
  const save = (name: string, position: EventPosition) => {
    const existing = consumerRow(name)
    const id = existing?.id ?? state.nextId("eventConsumers")
    state.tables.eventConsumers.set(id, { id, name, position })
  }

  return EventOutbox.of({
    append: (events) => Effect.sync(() => recordMemoryEvents(state, events)),
    claim: (consumer, { limit, start }) =>
      Effect.sync(() => {
        if (consumerRow(consumer) === undefined) save(consumer, { tx: 0, id: start === "end" ? lastId() : 0 })
        return Option.some(read(consumerRow(consumer)!.position, limit))
      }),
    advance: (consumer, position) => Effect.sync(() => save(consumer, position)),
    position: (consumer) => Effect.sync(() => Option.map(Option.fromNullable(consumerRow(consumer)), (row) => row.position)),
    read: (after, limit) => Effect.sync(() => read(after, limit)),
    end: Effect.sync(() => ({ tx: 0, id: lastId() })),
    prune: (before) =>
      Effect.sync(() => {
        const readByAll = Math.min(...[...state.tables.eventConsumers.values()].map((row) => row.position.id))
        const slackUntil = before.getTime() + Duration.toMillis(PRUNE_CLOCK_SLACK)
        let pruned = 0
        for (const [id, event] of [...state.tables.events].sort(([a], [b]) => a - b)) {
          const at = event.occurredAt.getTime()
          if (at >= before.getTime() && at <= slackUntil) break
          if (id <= readByAll && at < before.getTime()) {
            state.tables.events.delete(id)
            pruned++
          }
        }
        return pruned
      })
  })
}
