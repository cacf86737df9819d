import { Schema } from "effect"

/** A provider's webhook body that is not what the provider sends (not JSON, or a required field missing). */
export class MalformedFeedback extends Schema.TaggedError<MalformedFeedback>()("MalformedFeedback", {
  message: Schema.String
}) {
  /** A MalformedFeedback saying what is wrong, e.g. `MalformedFeedback.of("The body is not JSON.")`. */
  static of(message: string): MalformedFeedback {
    return new MalformedFeedback({ message })
  }
}
