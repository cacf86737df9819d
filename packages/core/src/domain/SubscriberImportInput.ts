import { Schema } from "effect"
import { Flag, optionalNullable, required, Text } from "./Fields.js"

/** Largest CSV text one request may carry (a larger file arrives in several append calls). */
export const MAX_CSV_CHUNK = 10_000_000

const Csv = Text("subscribers_csv", MAX_CSV_CHUNK)

/** An integer list id, also given as a numeric string. */
const ListId = Schema.Union(
  Schema.Int,
  Schema.NumberFromString.pipe(Schema.int())
).annotations({ message: () => "The email list id field must be an integer." })

/** Body of import create and update: all four fields are required (update is a full replace). */
export class SubscriberImportInput extends Schema.Class<SubscriberImportInput>("SubscriberImportInput")({
  subscribersCsv: required("subscribers_csv", Csv),
  emailListId: required("email_list_id", ListId),
  subscribeUnsubscribed: required("subscribe_unsubscribed", Flag("subscribe_unsubscribed")),
  unsubscribeOthers: required("unsubscribe_others", Flag("unsubscribe_others")),
  replaceTags: optionalNullable("replace_tags", Flag("replace_tags"))
}) {}

/** Body of append: more CSV text for a draft. */
export class SubscriberImportAppend extends Schema.Class<SubscriberImportAppend>("SubscriberImportAppend")({
  subscribersCsv: required("subscribers_csv", Csv)
}) {}
