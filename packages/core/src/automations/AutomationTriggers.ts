import { Duration, Effect, Option } from "effect"
import type { SubscriberId } from "../domain/Ids.js"
import type { DomainEvent } from "../events/DomainEvent.js"
import { EventConsumers } from "../events/EventConsumers.js"
import { Transactor } from "../ports/Transactor.js"
import { now } from "../usecases/now.js"
import { pollForever, SLOWEST_IDLE_POLL } from "../usecases/pollForever.js"
import type { Automation } from "./Automation.js"
import { AutomationEntry } from "./AutomationEntry.js"
import { AutomationOptions } from "./AutomationOptions.js"
import { AutomationRepository } from "./AutomationRepository.js"
import { AutomationRunRepository } from "./AutomationRunRepository.js"
import { attributeDateMatches } from "./attributeDate.js"
import { nextDay, nextOccurrence, startOfDay } from "./waitUntil.js"

/** The consumer name of the automation triggers in the outbox. */
export const AUTOMATION_CONSUMER = "automations"

/** Whether an event enrols its subscriber in the automation (its list, its trigger, and not older than its start). */
const enrols = (automation: Automation, event: DomainEvent): boolean => {
  const trigger = automation.trigger
  if (trigger === null || event.subscriberId === null || event.emailListId !== automation.emailListId) return false
  if (automation.startedAt === null || event.occurredAt.getTime() < automation.startedAt.getTime()) return false
  switch (trigger.type) {
    case "subscribed":
      return event.type === "subscriber.confirmed" || event.type === "subscriber.resubscribed" ||
        (event.type === "subscriber.created" && event.data?.["status"] === "subscribed")
    case "tag_added":
    case "tag_removed":
      return event.type === (trigger.type === "tag_added" ? "tag.added" : "tag.removed") &&
        String(event.data?.["tag"] ?? "").toLowerCase() === trigger.tag.trim().toLowerCase()
    default:
      return false
  }
}

/**
 * Enrols subscribers: event triggers (`subscribed`, `tag_added`, `tag_removed`) consume the outbox, so subscribers
 * added by an import or tagged by any API call enter alike, exactly once per event; timed triggers (`date`,
 * `attribute_date`) enrol list members in batches when due, resuming after the last member covered after a restart.
 */
export class AutomationTriggers extends Effect.Service<AutomationTriggers>()("@mailroom/AutomationTriggers", {
  effect: Effect.gen(function*() {
    const automations = yield* AutomationRepository
    const runs = yield* AutomationRunRepository
    const entry = yield* AutomationEntry
    const consumers = yield* EventConsumers
    const { withTransaction } = yield* Transactor
    const options = yield* AutomationOptions

    /** The started automations an event can trigger. */
    const eventTriggered = Effect.map(
      automations.started,
      (started) => started.filter((a) => a.trigger !== null && ["subscribed", "tag_added", "tag_removed"].includes(a.trigger.type))
    )
    /**
     * Events are read from the first kept one (an automation's start time, not the consumer's, decides which events
     * enrol), and only while an automation can be triggered by one.
     */
    const CONSUME = { start: "beginning", interested: Effect.map(eventTriggered, (started) => started.length > 0) } as const

    /** Enters the subscribers of a batch of events in the automations their events trigger. */
    const handle = (events: ReadonlyArray<DomainEvent>) =>
      Effect.gen(function*() {
        const started = yield* eventTriggered
        if (started.length === 0) return
        const at = yield* now
        for (const automation of started) {
          const ids = [...new Set(events.filter((event) => enrols(automation, event)).map((event) => event.subscriberId as SubscriberId))]
          if (ids.length > 0) yield* entry.enter(automation, ids, at)
        }
      })

    /** Enrols every member of a date trigger's automation (from its cursor on), then schedules its next occurrence. */
    const enrolMembers = (automation: Automation, occurrence: Date, at: Date) =>
      Effect.gen(function*() {
        const found = yield* entry.entryOf(automation, at, occurrence)
        let cursor = automation.triggerCursor
        if (Option.isSome(found)) {
          for (;;) {
            const batch = yield* withTransaction(Effect.gen(function*() {
              const done = yield* runs.enterMembers(found.value, cursor, options.enrolBatch)
              yield* automations.update(automation.id, { triggerCursor: done.lastSubscriberId })
              return done
            }))
            cursor = batch.lastSubscriberId
            if (batch.covered < options.enrolBatch) break
          }
        }
        const trigger = automation.trigger
        let next: Date | null = null
        if (trigger?.type === "date" && trigger.repeat !== "none") {
          next = nextOccurrence(occurrence, trigger.repeat)
          while (next.getTime() <= at.getTime()) next = nextOccurrence(next, trigger.repeat)
        }
        yield* automations.update(automation.id, { triggerNextAt: next, triggerCursor: 0 })
      })

    /** Enrols the members whose attribute date (plus the offset) is today, then looks again tomorrow. */
    const enrolAttributeDates = (automation: Automation, at: Date) =>
      Effect.gen(function*() {
        const trigger = automation.trigger
        const found = yield* entry.entryOf(automation, at, startOfDay(at))
        if (trigger?.type === "attribute_date" && Option.isSome(found) && automation.emailListId !== null) {
          let cursor = automation.triggerCursor
          for (;;) {
            const members = yield* runs.memberAttributes({ emailListId: automation.emailListId, attribute: trigger.attribute, afterSubscriberId: cursor, limit: options.enrolBatch })
            if (members.length === 0) break
            const due = members.filter((member) => attributeDateMatches(member.value, at, trigger.offset_days, trigger.yearly)).map((member) => member.id)
            cursor = members[members.length - 1]!.id
            yield* withTransaction(Effect.gen(function*() {
              if (due.length > 0) yield* runs.enterSubscribers(found.value, due)
              yield* automations.update(automation.id, { triggerCursor: cursor })
            }))
          }
        }
        yield* automations.update(automation.id, { triggerNextAt: nextDay(at), triggerCursor: 0 })
      })

    /** Runs the timed triggers that are due; how many ran. */
    const tick = Effect.fn("AutomationTriggers.tick")(function*() {
      const at = yield* now
      const due = (yield* automations.started).filter((a) => a.triggerNextAt !== null && a.triggerNextAt.getTime() <= at.getTime())
      for (const automation of due) {
        if (automation.trigger?.type === "date") yield* enrolMembers(automation, automation.triggerNextAt!, at)
        else if (automation.trigger?.type === "attribute_date") yield* enrolAttributeDates(automation, at)
        else yield* automations.update(automation.id, { triggerNextAt: null, triggerCursor: 0 })
      }
      return due.length
    })

    /** Handles every waiting event and due timed trigger now (tests and tools). */
    const drain = Effect.fn("AutomationTriggers.drain")(function*() {
      yield* consumers.drain(AUTOMATION_CONSUMER, handle, CONSUME)
      yield* tick()
    })

    /** Consumes events and runs timed triggers forever. */
    const run = Effect.zipRight(
      Effect.fork(consumers.run(AUTOMATION_CONSUMER, handle, CONSUME)),
      pollForever(
        "Automation triggers",
        Effect.map(tick(), (ran) => (ran > 0 ? Duration.seconds(1) : 0)),
        Duration.seconds(1),
        SLOWEST_IDLE_POLL
      )
    ) as Effect.Effect<never>

    return { handle, tick, drain, run } as const
  })
}) {}
