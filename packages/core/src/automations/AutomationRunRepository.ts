import { Context, type Effect } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { EmailListId, SubscriberId } from "../domain/Ids.js"
import type { SegmentRule } from "../domain/SegmentRule.js"
import type { AutomationRunQuery } from "./AutomationCollections.js"
import type { AutomationId, AutomationRunId } from "./AutomationIds.js"
import type { RunState } from "./AutomationStatus.js"

/**
 * Who may enter again: `once` (never twice), `afterHalt` (when every earlier position was halted), `again` (when not in
 * it now), `occurrence` (not in it now and not entered since `since`: one entry per occurrence of a repeating trigger).
 */
export type EntryRule =
  | { readonly _tag: "once" }
  | { readonly _tag: "afterHalt" }
  | { readonly _tag: "again" }
  | { readonly _tag: "occurrence"; readonly since: Date }

/** Where entering subscribers start: the automation, its audience, the first action and when it is due. */
export interface Entry {
  readonly automationId: AutomationId
  readonly emailListId: EmailListId
  readonly segment: SegmentRule | null
  readonly rule: EntryRule
  readonly actionUuid: string
  readonly at: Date
  readonly nextRunAt: Date
}

/** A position claimed by the scheduler. */
export interface ClaimedRun {
  readonly id: AutomationRunId
  /** The run it belongs to (positions forked by a split share it): sends are unique per run and mail. */
  readonly runId: number
  readonly automationId: AutomationId
  readonly subscriberId: SubscriberId
  readonly actionUuid: string
  readonly enteredAt: Date
  /** When it reached its current action. */
  readonly arrivedAt: Date
}

/** What the runner needs of a subscriber to check membership and conditions. */
export interface SubscriberFacts {
  readonly id: SubscriberId
  readonly uuid: string
  readonly email: string
  readonly emailListId: EmailListId
  readonly subscribed: boolean
  readonly extraAttributes: Readonly<Record<string, unknown>>
  readonly tagIds: ReadonlyArray<number>
  readonly tagNames: ReadonlyArray<string>
}

/** The new place of a position after a step. */
export type RunChange =
  | { readonly _tag: "Move"; readonly id: AutomationRunId; readonly actionUuid: string; readonly nextRunAt: Date }
  | { readonly _tag: "Recheck"; readonly id: AutomationRunId; readonly nextRunAt: Date }
  | { readonly _tag: "Complete"; readonly id: AutomationRunId }
  | { readonly _tag: "Halt"; readonly id: AutomationRunId; readonly actionUuid: string; readonly reason: string }

/** A position forked off by a split, in the same run. */
export interface ForkedRun {
  readonly automationId: AutomationId
  readonly runId: number
  readonly subscriberId: SubscriberId
  readonly enteredAt: Date
  readonly actionUuid: string
  readonly nextRunAt: Date
}

/** A row of GET /automations/{uuid}/subscribers. */
export interface ListedRun {
  readonly subscriberUuid: string | null
  readonly actionUuid: string | null
  readonly state: RunState
  readonly enteredAt: Date
  readonly nextRunAt: Date | null
}

/** A question a condition asks of a run's mail: was it opened, was (a link of) it clicked. */
export interface Engagement {
  readonly runId: number
  readonly mailId: number
  readonly url: string | null
}

/**
 * Storage of subscribers' positions in automations: one row per position with its next run time. Entering is
 * set-based (the entry rules and the audience are checked in the same statement); the scheduler claims due positions
 * of started automations under a lease (its claim moves `next_run_at` to the lease's end, so a crashed claim comes
 * back by itself) and writes each step's outcome only for the positions it still holds.
 */
export class AutomationRunRepository extends Context.Tag("@mailroom/AutomationRunRepository")<AutomationRunRepository, {
  /** Enters those of these subscribers the audience and the entry rule allow; the ids that entered. */
  readonly enterSubscribers: (entry: Entry, subscriberIds: ReadonlyArray<SubscriberId>) => Effect.Effect<ReadonlyArray<SubscriberId>>
  /** Enters the next `limit` members above `afterSubscriberId` the rule allows; how many were covered and the last id. */
  readonly enterMembers: (entry: Entry, afterSubscriberId: number, limit: number) => Effect.Effect<{ readonly covered: number; readonly lastSubscriberId: number }>
  /** The next `limit` members above `afterSubscriberId` with one extra attribute each (attribute-date triggers). */
  readonly memberAttributes: (options: {
    readonly emailListId: EmailListId
    readonly attribute: string
    readonly afterSubscriberId: number
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<{ readonly id: SubscriberId; readonly value: unknown }>>
  /** Claims up to `limit` due positions of started automations for `owner` until `leaseUntil`, earliest due first. */
  readonly claim: (options: {
    readonly now: Date
    readonly leaseUntil: Date
    readonly limit: number
    readonly owner: string
  }) => Effect.Effect<ReadonlyArray<ClaimedRun>>
  /** Those of these positions `owner` still holds, locked until the transaction ends (call inside one). */
  readonly hold: (ids: ReadonlyArray<AutomationRunId>, owner: string) => Effect.Effect<ReadonlySet<number>>
  /** Writes steps' outcomes and forks, freeing the leases. */
  readonly apply: (changes: ReadonlyArray<RunChange>, forks: ReadonlyArray<ForkedRun>, at: Date) => Effect.Effect<void>
  /** What the runner needs of these subscribers (the missing are deleted). */
  readonly facts: (subscriberIds: ReadonlyArray<SubscriberId>) => Effect.Effect<ReadonlyArray<SubscriberFacts>>
  /** Which of these questions are answered yes: their indexes. */
  readonly engaged: (kind: "opened" | "clicked", questions: ReadonlyArray<Engagement>) => Effect.Effect<ReadonlySet<number>>
  /** Halts the active positions of the automation whose action is not among `keep` (its actions were edited). */
  readonly haltRemoved: (automationId: AutomationId, keep: ReadonlyArray<string>, at: Date) => Effect.Effect<number>
  /** A page of the automation's positions with their subscribers' uuids. */
  readonly list: (automationId: AutomationId, query: AutomationRunQuery) => Effect.Effect<Page<ListedRun>>
}>() {}
