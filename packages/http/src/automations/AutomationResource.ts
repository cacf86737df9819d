import { type ActionCounts, type AutomationAction, AutomationTrigger, type AutomationView, formatTimestamp, JsonValue, type ListedRun } from "@mailroom/core"
import { Schema } from "effect"

/** An action as the API returns it: as written, with its `uuid` and live counts (branches likewise). */
export const ActionResource = Schema.Struct(
  {
    uuid: Schema.String,
    type: Schema.String,
    active: Schema.Int.annotations({ description: "Subscribers on this action now." }),
    completed: Schema.Int.annotations({ description: "Subscribers who passed this action." }),
    halted: Schema.Int.annotations({ description: "Subscribers halted on this action." })
  },
  Schema.Record({ key: Schema.String, value: JsonValue })
).annotations({ identifier: "AutomationActionResource", description: "An action (`{type, ...}` as written) with its uuid and live counts." })

/** An automation as the API returns it. */
export const AutomationResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  email_list_uuid: Schema.NullOr(Schema.String),
  segment_uuid: Schema.NullOr(Schema.String),
  status: Schema.Literal("paused", "started"),
  trigger: Schema.NullOr(AutomationTrigger),
  actions: Schema.Array(ActionResource),
  repeat_enabled: Schema.Boolean,
  repeat_only_after_halt: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Automation" })

/** Where one subscriber is in an automation. */
export const AutomationSubscriberResource = Schema.Struct({
  subscriber_uuid: Schema.NullOr(Schema.String),
  action_uuid: Schema.NullOr(Schema.String),
  state: Schema.Literal("active", "completed", "halted"),
  entered_at: Schema.String,
  next_run_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AutomationSubscriber" })

const NONE: ActionCounts = { active: 0, completed: 0, halted: 0 }

/** Renders an action and its branches with their counts. */
const toAction = (action: AutomationAction, counts: ReadonlyMap<string, ActionCounts>): typeof ActionResource.Type => {
  const own = counts.get(action.uuid!) ?? NONE
  const branches = (list: ReadonlyArray<AutomationAction>) => list.map((item) => toAction(item, counts))
  const base = { ...action, uuid: action.uuid!, ...own }
  if (action.type === "condition") return { ...base, yes: branches(action.yes), no: branches(action.no) }
  if (action.type === "split") return { ...base, left: branches(action.left), right: branches(action.right) }
  return base
}

/** Renders an automation. */
export const toAutomationResource = ({ automation, counts, emailListUuid, segmentUuid }: AutomationView): typeof AutomationResource.Type => ({
  uuid: automation.uuid,
  name: automation.name,
  email_list_uuid: emailListUuid,
  segment_uuid: segmentUuid,
  status: automation.status,
  trigger: automation.trigger,
  actions: automation.actions.map((action) => toAction(action, counts)),
  repeat_enabled: automation.repeatEnabled,
  repeat_only_after_halt: automation.repeatOnlyAfterHalt,
  created_at: formatTimestamp(automation.createdAt),
  updated_at: formatTimestamp(automation.updatedAt)
})

/** Renders a subscriber's position. */
export const toAutomationSubscriberResource = (run: ListedRun): typeof AutomationSubscriberResource.Type => ({
  subscriber_uuid: run.subscriberUuid,
  action_uuid: run.actionUuid,
  state: run.state,
  entered_at: formatTimestamp(run.enteredAt),
  next_run_at: run.nextRunAt === null ? null : formatTimestamp(run.nextRunAt)
})
