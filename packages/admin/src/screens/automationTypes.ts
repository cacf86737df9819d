/** Automations as the API sends them. */

/** What enrols subscribers: `{type, ...}` as the API writes it. */
export interface Trigger {
  readonly type: string
  readonly tag?: string
  readonly at?: string
  readonly repeat?: string
  readonly attribute?: string
  readonly offset_days?: number
  readonly yearly?: boolean
}

/** A step as the API returns it: as written (`{type, ...}`), with its uuid, live counts and branches. */
export interface AutomationAction {
  readonly uuid: string
  readonly type: string
  readonly active: number
  readonly completed: number
  readonly halted: number
  readonly [key: string]: unknown
}

/** An automation as the API returns it. */
export interface Automation {
  readonly uuid: string
  readonly name: string
  readonly email_list_uuid: string | null
  readonly segment_uuid: string | null
  readonly status: "paused" | "started"
  readonly trigger: Trigger | null
  readonly actions: ReadonlyArray<AutomationAction>
  readonly repeat_enabled: boolean
  readonly repeat_only_after_halt: boolean
  readonly created_at: string
  readonly updated_at: string
}

/** Where one subscriber is in an automation. */
export interface AutomationSubscriber {
  readonly subscriber_uuid: string | null
  readonly action_uuid: string | null
  readonly state: "active" | "completed" | "halted"
  readonly entered_at: string
  readonly next_run_at: string | null
}

/** The keys under which a step holds the steps of its branches. */
export const BRANCHES = ["yes", "no", "left", "right"]
