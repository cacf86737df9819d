import { Schema } from "effect"

/** The trigger endpoint was called for an automation without a webhook trigger. */
export class AutomationNotTriggerable extends Schema.TaggedError<AutomationNotTriggerable>()("AutomationNotTriggerable", {
  message: Schema.String
}) {}
