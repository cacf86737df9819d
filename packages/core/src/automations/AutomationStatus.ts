import { Schema } from "effect"

/** An automation's status: new ones are paused; only started ones enrol and run subscribers. */
export const AutomationStatus = Schema.Literal("paused", "started")
/** @since 0.3.0 */
export type AutomationStatus = typeof AutomationStatus.Type

/** What moves an automation between statuses. */
export type AutomationMove = "start" | "pause"

/** The automation state machine: the status after each move from each status (both moves are idempotent). */
export const automationTransitions: { readonly [M in AutomationMove]: Record<AutomationStatus, AutomationStatus> } = {
  start: { paused: "started", started: "started" },
  pause: { paused: "paused", started: "paused" }
}

/** A subscriber's position in an automation: running, done, or stopped early. */
export const RunState = Schema.Literal("active", "completed", "halted")
/** @since 0.3.0 */
export type RunState = typeof RunState.Type
