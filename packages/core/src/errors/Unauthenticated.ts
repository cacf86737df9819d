import { Schema } from "effect"

/** No valid API token was presented. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  message: Schema.String
}) {
  /** The one message every unauthenticated request gets. */
  static readonly default = new Unauthenticated({ message: "Unauthorized." })
}
