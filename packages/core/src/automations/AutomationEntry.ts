import { Effect, Option } from "effect"
import type { SubscriberId } from "../domain/Ids.js"
import { segmentRule } from "../domain/SegmentRule.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import type { PlacedAction } from "./actionTree.js"
import type { Automation } from "./Automation.js"
import { AutomationRunRepository, type Entry, type EntryRule } from "./AutomationRunRepository.js"
import { isRepeatingTrigger } from "./AutomationTrigger.js"
import { waitUntil } from "./waitUntil.js"

/** The entry rule of an automation: per occurrence for repeating triggers, else by its repeat settings. */
export const entryRule = (automation: Automation, occurrence: Date | null): EntryRule =>
  occurrence !== null && isRepeatingTrigger(automation.trigger)
    ? { _tag: "occurrence", since: occurrence }
    : !automation.repeatEnabled
    ? { _tag: "once" }
    : automation.repeatOnlyAfterHalt
    ? { _tag: "afterHalt" }
    : { _tag: "again" }

/** When a subscriber entering at `at` is first due: after the wait when the first action is one, else at once. */
const firstDue = (first: PlacedAction, at: Date): Date => (first.type === "wait" ? waitUntil(at, first) : at)

/**
 * Enters subscribers in an automation (set-based; the audience and the entry rules are checked by the store in the
 * same statement). Nobody enters an automation that is paused, has no list or actions, or whose segment is gone.
 */
export class AutomationEntry extends Effect.Service<AutomationEntry>()("@mailroom/AutomationEntry", {
  effect: Effect.gen(function*() {
    const runs = yield* AutomationRunRepository
    const segments = yield* SegmentRepository

    /** Where subscribers entering now start, or none when nobody can enter. */
    const entryOf = (automation: Automation, at: Date, occurrence: Date | null) =>
      Effect.gen(function*() {
        const first = automation.placedActions[0]
        if (automation.status !== "started" || automation.emailListId === null || first === undefined) return Option.none<Entry>()
        let segment = null
        if (automation.segmentId !== null) {
          const found = yield* segments.findById(automation.segmentId)
          if (Option.isNone(found)) return Option.none<Entry>()
          segment = segmentRule(found.value)
        }
        return Option.some<Entry>({
          automationId: automation.id,
          emailListId: automation.emailListId,
          segment,
          rule: entryRule(automation, occurrence),
          actionUuid: first.uuid,
          at,
          nextRunAt: firstDue(first, at)
        })
      })

    /** Enters these subscribers where allowed; the ids that entered. */
    const enter = (automation: Automation, subscriberIds: ReadonlyArray<SubscriberId>, at: Date, occurrence: Date | null = null) =>
      Effect.gen(function*() {
        if (subscriberIds.length === 0) return []
        const entry = yield* entryOf(automation, at, occurrence)
        return Option.isNone(entry) ? [] : yield* runs.enterSubscribers(entry.value, subscriberIds)
      })

    return { entryOf, enter } as const
  })
}) {}
