import { Schema } from "effect"

/** Where a subscriber import stands: editable, waiting for a worker, running, or finished either way. */
export const ImportStatus = Schema.Literal("draft", "pending", "importing", "completed", "failed")
/** @since 0.1.0 */
export type ImportStatus = typeof ImportStatus.Type

/** What moves an import: client edits and start, then the worker's progress. */
export type ImportEvent = "edit" | "start" | "begin" | "complete" | "fail"

/** The import state machine: for each event, the statuses it applies to and the status it leads to. */
export const importTransitions: { readonly [E in ImportEvent]: { readonly from: ReadonlyArray<ImportStatus>; readonly to: ImportStatus } } = {
  edit: { from: ["draft"], to: "draft" },
  start: { from: ["draft"], to: "pending" },
  begin: { from: ["pending"], to: "importing" },
  complete: { from: ["importing"], to: "completed" },
  fail: { from: ["pending", "importing"], to: "failed" }
}

/** True when `event` may happen to an import in `status`. */
export const importAllows = (status: ImportStatus, event: ImportEvent): boolean => importTransitions[event].from.includes(status)
