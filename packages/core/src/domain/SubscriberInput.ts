import { Schema } from "effect"
import { EmailText, Flag, NullableText, optional, optionalNullable, required, TextList } from "./Fields.js"
import { ExtraAttributes } from "./Subscriber.js"

/** `extra_attributes`: an object, or `[]` (how empty attributes are returned) read as an empty object. */
export const ExtraAttributesField = Schema.Union(
  ExtraAttributes,
  Schema.transform(Schema.Tuple(), ExtraAttributes, { strict: false, decode: () => ({}), encode: () => [] as const })
).annotations({ message: () => "The extra attributes field must be an object." })

/** Body of POST /email-lists/{list}/subscribers. */
export class SubscriberInput extends Schema.Class<SubscriberInput>("SubscriberInput")({
  email: required("email", EmailText("email")),
  firstName: optional("first_name", NullableText("first_name")),
  lastName: optional("last_name", NullableText("last_name")),
  extraAttributes: optional("extra_attributes", Schema.NullOr(ExtraAttributesField)),
  tags: optionalNullable("tags", TextList("tags")),
  skipConfirmation: optionalNullable("skip_confirmation", Flag("skip_confirmation")),
  strict: optionalNullable("strict", Flag("strict"))
}) {}

/** Body of PUT/PATCH /subscribers/{subscriber}: only the fields present change. */
export class SubscriberUpdateInput extends Schema.Class<SubscriberUpdateInput>("SubscriberUpdateInput")({
  email: required("email", EmailText("email")),
  firstName: optional("first_name", NullableText("first_name")),
  lastName: optional("last_name", NullableText("last_name")),
  extraAttributes: optional("extra_attributes", Schema.NullOr(ExtraAttributesField)),
  tags: optionalNullable("tags", TextList("tags")),
  appendTags: optionalNullable("append_tags", Flag("append_tags"))
}) {}

/** Body of POST and DELETE /subscribers/{subscriber}/tags. */
export class SubscriberTagsInput extends Schema.Class<SubscriberTagsInput>("SubscriberTagsInput")({
  tags: required("tags", TextList("tags"))
}) {}

/** Body of the list + email state actions (confirm, unsubscribe, resubscribe, resend-confirmation). */
export class SubscriberEmailInput extends Schema.Class<SubscriberEmailInput>("SubscriberEmailInput")({
  email: required("email", EmailText("email"))
}) {}
