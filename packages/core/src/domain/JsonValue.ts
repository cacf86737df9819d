import { Schema } from "effect"

/**
 * Any JSON value (free-form attributes, template replacements, webhook payloads). Its JSON Schema lists the JSON
 * types instead of the anonymous `{$id: "/schemas/unknown"}` that Schema.Unknown gives, which repeated at every use
 * is a duplicate `$id` that strict OpenAPI validators refuse.
 */
export const JsonValue = Schema.Unknown.annotations({
  identifier: "JsonValue",
  description: "Any JSON value.",
  jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"] }
})
