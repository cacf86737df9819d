import { Schema } from "effect"
import { MAX_HTML, NullableText, optionalNullable, required, RequiredText, Text } from "./Fields.js"

/** Body of template create and update (update is a full replace). */
export class TemplateInput extends Schema.Class<TemplateInput>("TemplateInput")({
  name: required("name", RequiredText("name")),
  html: optionalNullable("html", Text("html", MAX_HTML)),
  structuredHtml: Schema.optional(NullableText("structured_html", MAX_HTML)).pipe(Schema.fromKey("structured_html"))
}) {}
