import { Schema } from "effect"

/** The requested resource does not exist (or is not visible through the given parent). */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {
  /** A NotFound naming the kind of resource, e.g. `NotFound.of("Template")`. */
  static of(resource: string): NotFound {
    return new NotFound({ message: `${resource} not found.` })
  }
}
