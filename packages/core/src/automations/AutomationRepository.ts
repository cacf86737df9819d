import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { ActionCounts, Automation } from "./Automation.js"
import type { AutomationQuery } from "./AutomationCollections.js"
import type { AutomationId, AutomationUuid } from "./AutomationIds.js"

/** An automation before the store has given it an id. */
export type NewAutomation = Omit<Automation, "id" | "placedActions">

/** The stored fields of an automation a write may change. */
export type AutomationChanges = Partial<Omit<NewAutomation, "uuid" | "createdAt">>

/** Storage of automations and the live counts of their actions. */
export class AutomationRepository extends Context.Tag("@mailroom/AutomationRepository")<AutomationRepository, {
  readonly insert: (automation: NewAutomation) => Effect.Effect<Automation>
  readonly update: (id: AutomationId, changes: AutomationChanges) => Effect.Effect<Option.Option<Automation>>
  readonly findById: (id: AutomationId) => Effect.Effect<Option.Option<Automation>>
  readonly findByUuid: (uuid: AutomationUuid) => Effect.Effect<Option.Option<Automation>>
  readonly list: (query: AutomationQuery) => Effect.Effect<Page<Automation>>
  /** Deletes the automation with every position in it and its counts. */
  readonly delete: (id: AutomationId) => Effect.Effect<boolean>
  /** Every started automation (the trigger consumers' and the scheduler's working set). */
  readonly started: Effect.Effect<ReadonlyArray<Automation>>
  /** The counts of each action of the automation that has any, by action uuid. */
  readonly actionCounts: (id: AutomationId) => Effect.Effect<ReadonlyMap<string, ActionCounts>>
  /** Adds passes to actions' `completed` counts (in the transaction of the steps that passed them). */
  readonly countPasses: (id: AutomationId, passes: ReadonlyMap<string, number>) => Effect.Effect<void>
}>() {}
