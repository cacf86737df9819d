import { Schema } from "effect"
import { EmailText, MAX_HTML, NullableText, optional, optionalNullable, required, RequiredText } from "../domain/Fields.js"
import { mailSwitchFields, TemplateFieldValues } from "../domain/mailInputFields.js"

/** Body of automation mail create and update (a full replace: absent fields take their defaults). */
export class AutomationMailInput extends Schema.Class<AutomationMailInput>("AutomationMailInput")({
  name: required("name", RequiredText("name")),
  subject: optional("subject", NullableText("subject", 998)),
  fromEmail: optionalNullable("from_email", EmailText("from_email")),
  fromName: optional("from_name", NullableText("from_name")),
  replyToEmail: optionalNullable("reply_to_email", EmailText("reply_to_email")),
  html: optional("html", NullableText("html", MAX_HTML)),
  templateUuid: optionalNullable("template_uuid", Schema.String),
  fields: optionalNullable("fields", TemplateFieldValues),
  ...mailSwitchFields
}) {}
