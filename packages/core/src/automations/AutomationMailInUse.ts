import { Schema } from "effect"

/** An automation mail cannot be deleted while a started automation's action sends it. */
export class AutomationMailInUse extends Schema.TaggedError<AutomationMailInUse>()("AutomationMailInUse", {
  message: Schema.String
}) {}
