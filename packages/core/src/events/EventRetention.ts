import { Duration, Effect } from "effect"
import { now } from "../usecases/now.js"
import { pollForever } from "../usecases/pollForever.js"
import { EventOutbox } from "./EventOutbox.js"

/** How long events are kept once every consumer has read them. */
export const EVENT_RETENTION = Duration.days(7)

/** Keeps the outbox small: every hour, deletes events older than a week that every consumer has read. */
export class EventRetention extends Effect.Service<EventRetention>()("@mailroom/EventRetention", {
  effect: Effect.gen(function*() {
    const outbox = yield* EventOutbox

    /** Deletes what is due now; how many events. */
    const prune = Effect.fn("EventRetention.prune")(function*() {
      const at = yield* now
      return yield* outbox.prune(new Date(at.getTime() - Duration.toMillis(EVENT_RETENTION)))
    })

    /** Prunes every hour until interrupted. */
    const run = pollForever("Event retention", Effect.as(prune(), Duration.hours(1)), Duration.hours(1))

    return { prune, run } as const
  })
}) {}
