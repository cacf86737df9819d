import { Schema } from "effect"
import { ScheduleAt } from "../domain/CampaignInput.js"
import { RequiredText } from "../domain/Fields.js"

const Tag = RequiredText("tag")

/** What enrols subscribers in an automation (`{type, ...}`); `none` enrols nobody by itself. */
export const AutomationTrigger = Schema.Union(
  Schema.Struct({ type: Schema.Literal("subscribed") }),
  Schema.Struct({ type: Schema.Literal("tag_added"), tag: Tag }),
  Schema.Struct({ type: Schema.Literal("tag_removed"), tag: Tag }),
  Schema.Struct({
    type: Schema.Literal("date"),
    /** `Y-m-d H:i:s` (UTC): when every member is enrolled. */
    at: ScheduleAt,
    repeat: Schema.optionalWith(Schema.Literal("none", "daily", "monthly", "yearly"), { default: () => "none" as const })
  }),
  Schema.Struct({
    type: Schema.Literal("attribute_date"),
    /** An extra attribute holding a date (`YYYY-MM-DD`, or a timestamp starting with one). */
    attribute: RequiredText("attribute"),
    offset_days: Schema.optionalWith(Schema.Int.pipe(Schema.between(-366, 366)), { default: () => 0 }),
    yearly: Schema.optionalWith(Schema.Boolean, { default: () => false })
  }),
  Schema.Struct({ type: Schema.Literal("webhook") }),
  Schema.Struct({ type: Schema.Literal("none") })
).annotations({ identifier: "AutomationTrigger", description: "What enrols subscribers: `{type, ...}`." })
/** @since 0.3.0 */
export type AutomationTrigger = typeof AutomationTrigger.Type

/** The trigger types enrolling on a schedule rather than on events. */
export const isTimedTrigger = (trigger: AutomationTrigger | null): boolean =>
  trigger !== null && (trigger.type === "date" || trigger.type === "attribute_date")

/** Whether each occurrence of the trigger enrols anew (a repeating date, a yearly attribute date). */
export const isRepeatingTrigger = (trigger: AutomationTrigger | null): boolean =>
  trigger !== null && ((trigger.type === "date" && trigger.repeat !== "none") || (trigger.type === "attribute_date" && trigger.yearly))
