import { Schema } from "effect"

/** The resource is not in a state that allows the action (e.g. confirming a subscribed address). */
export class InvalidState extends Schema.TaggedError<InvalidState>()("InvalidState", {
  message: Schema.String
}) {}
