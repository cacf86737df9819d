import { Schema } from "effect"

/** A collection query named a sort, filter or include that the collection does not allow. */
export class InvalidQuery extends Schema.TaggedError<InvalidQuery>()("InvalidQuery", {
  message: Schema.String
}) {}
