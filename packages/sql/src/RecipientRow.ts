import { ExtraAttributes, SubscriberId } from "@mailroom/core"
import { Schema } from "effect"

/** A claimed send's subscriber as delivery reads it: what templates see, and its status. */
export const RecipientRow = Schema.Struct({
  id: SubscriberId,
  uuid: Schema.String,
  email: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  extraAttributes: Schema.parseJson(ExtraAttributes),
  status: Schema.String
})
