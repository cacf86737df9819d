import { Schema } from "effect"
import { TemplateId, TemplateUuid } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** A reusable campaign layout; `[[[name]]]` placeholders mark the fields a campaign fills in. */
export class Template extends Schema.Class<Template>("Template")({
  id: TemplateId,
  uuid: TemplateUuid,
  name: Schema.String,
  html: Schema.String,
  structuredHtml: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** One fillable field of a template: its name and editor type (default `editor`). */
export interface TemplateField {
  readonly name: string
  readonly type: string
}

/** A template slot: `[[[name]]]` or `[[[name:type]]]` (name in group 1, type in group 2). */
export const templatePlaceholder = /\[\[\[\s*([A-Za-z0-9_-]+)(?:\s*:\s*([A-Za-z0-9_-]+))?\s*\]\]\]/g

/** The fields a template's html declares; a template without placeholders has the single field `html`. */
export const templateFields = (html: string): ReadonlyArray<TemplateField> => {
  const fields = new Map<string, string>()
  for (const match of html.matchAll(templatePlaceholder)) {
    if (!fields.has(match[1]!)) fields.set(match[1]!, match[2] ?? "editor")
  }
  return fields.size === 0 ? [{ name: "html", type: "editor" }] : [...fields].map(([name, type]) => ({ name, type }))
}

/** The layout stored when a template is created without html: a content slot plus webview and unsubscribe links. */
export const DEFAULT_TEMPLATE_HTML = `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
  <p><a href="::webviewUrl::">View this email in your browser</a></p>
  [[[content]]]
  <p><a href="::unsubscribeUrl::">Unsubscribe</a></p>
</body>
</html>`
