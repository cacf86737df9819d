import type { ApiError } from "../api/client"
import type { Template } from "../api/types"
import { SelectField, TextArea } from "./Field"

/** A mail's content: a choice of HTML written here or a template, then the HTML or the chosen template's fields. */
export const MailContentFields = ({ templates, template, onTemplate, html, onHtml, fields, onFields, error }: {
  templates: ReadonlyArray<Template> | undefined
  template: string
  onTemplate: (template: string) => void
  html: string
  onHtml: (html: string) => void
  fields: Record<string, string>
  onFields: (fields: Record<string, string>) => void
  error: ApiError | undefined
}) => {
  const chosenTemplate = templates?.find((t) => t.uuid === template)
  return (
    <>
      <SelectField label="Content" name="template_uuid" value={template} onValue={onTemplate} error={error} options={[["", "HTML written here"], ...(templates ?? []).map((t) => [t.uuid, `Template: ${t.name}`] as const)]} />
      {template === "" ? (
        <TextArea label="HTML" name="html" value={html} onValue={onHtml} error={error} rows={14} mono hint="Liquid works: {{ subscriber.first_name }}, {{ subscriber.email }}, {{ unsubscribe_url }}." />
      ) : (
        (chosenTemplate?.fields ?? []).map((field) => (
          <TextArea
            key={field.name}
            label={`${field.name}${field.type.toLowerCase() === "markdown" ? " (Markdown)" : ""}`}
            name={`fields.${field.name}`}
            value={fields[field.name] ?? ""}
            onValue={(value) => onFields({ ...fields, [field.name]: value })}
            error={error}
            rows={8}
            mono
          />
        ))
      )}
    </>
  )
}
