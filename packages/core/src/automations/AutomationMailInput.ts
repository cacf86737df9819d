import { Schema } from "effect"
import { EmailText, Flag, MAX_HTML, NullableText, optional, optionalNullable, required, RequiredText } from "../domain/Fields.js"

/** Body of automation mail create and update (a full replace: absent fields take their defaults). */
export class AutomationMailInput extends Schema.Class<AutomationMailInput>("AutomationMailInput")({
  name: required("name", RequiredText("name")),
  subject: optional("subject", NullableText("subject", 998)),
  fromEmail: optionalNullable("from_email", EmailText("from_email")),
  fromName: optional("from_name", NullableText("from_name")),
  replyToEmail: optionalNullable("reply_to_email", EmailText("reply_to_email")),
  html: optional("html", NullableText("html", MAX_HTML)),
  templateUuid: optionalNullable("template_uuid", Schema.String),
  fields: optionalNullable(
    "fields",
    Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
      message: () => "The fields field must be an object of strings."
    }).pipe(Schema.filter((fields) => Object.values(fields).reduce((n, value) => n + value.length, 0) <= MAX_HTML, {
      message: () => `The fields may hold at most ${MAX_HTML} characters in all.`
    }))
  ),
  utmTags: optionalNullable("utm_tags", Flag("utm_tags")),
  addSubscriberTags: optionalNullable("add_subscriber_tags", Flag("add_subscriber_tags")),
  addSubscriberLinkTags: optionalNullable("add_subscriber_link_tags", Flag("add_subscriber_link_tags")),
  trackOpens: optionalNullable("track_opens", Flag("track_opens")),
  trackClicks: optionalNullable("track_clicks", Flag("track_clicks"))
}) {}
