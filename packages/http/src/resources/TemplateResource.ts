import { formatTimestamp, type Template, templateFields } from "@mailroom/core"
import { Schema } from "effect"

/** A template as the API returns it. */
export const TemplateResource = Schema.Struct({
  id: Schema.Int,
  uuid: Schema.UUID,
  name: Schema.String,
  html: Schema.String.annotations({ description: "Always ends with exactly one newline." }),
  structured_html: Schema.NullOr(Schema.String),
  fields: Schema.Array(Schema.Struct({ name: Schema.String, type: Schema.String })),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Template" })

/** Renders a template; html is returned ending in exactly one newline. */
export const toTemplateResource = (template: Template): typeof TemplateResource.Type => ({
  id: template.id,
  uuid: template.uuid,
  name: template.name,
  html: template.html.replace(/\n*$/, "\n"),
  structured_html: template.structuredHtml,
  fields: templateFields(template.html),
  created_at: formatTimestamp(template.createdAt),
  updated_at: formatTimestamp(template.updatedAt)
})
