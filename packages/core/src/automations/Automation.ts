import { Schema } from "effect"
import { EmailListId, SegmentId } from "../domain/Ids.js"
import { Timestamp } from "../domain/Timestamp.js"
import { AutomationAction } from "./AutomationAction.js"
import { AutomationId, AutomationUuid } from "./AutomationIds.js"
import { AutomationStatus } from "./AutomationStatus.js"
import { AutomationTrigger } from "./AutomationTrigger.js"
import type { PlacedAction } from "./actionTree.js"

/** A flow subscribers go through: who enters (list, segment, trigger), the actions, and the re-entry rules. */
export class Automation extends Schema.Class<Automation>("Automation")({
  id: AutomationId,
  uuid: AutomationUuid,
  name: Schema.String,
  emailListId: Schema.NullOr(EmailListId),
  segmentId: Schema.NullOr(SegmentId),
  status: AutomationStatus,
  trigger: Schema.NullOr(AutomationTrigger),
  /** The actions, each with its uuid. */
  actions: Schema.Array(AutomationAction),
  repeatEnabled: Schema.Boolean,
  repeatOnlyAfterHalt: Schema.Boolean,
  /** When it was last started: events from before do not enrol. */
  startedAt: Schema.NullOr(Timestamp),
  /** When a timed trigger next enrols (or checks attribute dates); null when it has nothing more to do. */
  triggerNextAt: Schema.NullOr(Timestamp),
  /** The last subscriber id covered by the enrolment in progress (it resumes after it). */
  triggerCursor: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {
  /** The actions with their uuids (every stored action has one). */
  get placedActions(): ReadonlyArray<PlacedAction> {
    return this.actions as ReadonlyArray<PlacedAction>
  }
}

/** Live counts of one action: subscribers on it now, who passed it, who were halted on it. */
export interface ActionCounts {
  readonly active: number
  readonly completed: number
  readonly halted: number
}
