import { Schema } from "effect"
import { NullableText, optionalNullable, required, RequiredText, Text } from "./Fields.js"

/** Body of template create and update (update is a full replace). */
export class TemplateInput extends Schema.Class<TemplateInput>("TemplateInput")({
  name: required("name", RequiredText("name")),
  html: optionalNullable("html", Text("html", 10_000_000)),
  structuredHtml: Schema.optional(NullableText("structured_html", 10_000_000)).pipe(Schema.fromKey("structured_html"))
}) {}
