import { Schema } from "effect"

/** The API token is valid but lacks the ability the operation needs. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {
  /** The one message every forbidden request gets. */
  static readonly default = new Forbidden({ message: "This action is unauthorized." })
}
