import { useRenderedPreview } from "../api/useRenderedPreview"
import { PreviewPane } from "../components/PreviewPane"
import type { RenderedMail, TransactionalTemplate } from "./transactionalTypes"

const PREVIEW_ADDRESS = "preview@example.com"

/** A transactional template as an application would get it, rendered by the server from sample replacements. */
export const TransactionalPreview = ({ template, type, subject, html, text, replacements }: {
  template: TransactionalTemplate | undefined
  type: string
  subject: string
  html: string
  text: string
  replacements: string
}) => {
  let values: unknown = undefined
  let jsonProblem: string | undefined = undefined
  try {
    values = replacements.trim() === "" ? {} : JSON.parse(replacements)
    if (typeof values !== "object" || values === null || Array.isArray(values)) jsonProblem = "The replacements must be a JSON object."
  } catch {
    jsonProblem = "The replacements are not valid JSON."
  }
  const markdown = type === "markdown"
  const body =
    jsonProblem !== undefined || (markdown && template === undefined)
      ? null
      : markdown
      ? { from: PREVIEW_ADDRESS, to: PREVIEW_ADDRESS, mail_name: template!.uuid, subject, replacements: values }
      : { from: PREVIEW_ADDRESS, to: PREVIEW_ADDRESS, subject: subject.trim() === "" ? "(no subject)" : subject, html, text: text === "" ? null : text, replacements: values }
  const { preview, error } = useRenderedPreview<RenderedMail>("/transactional-mails/render", body)
  return (
    <PreviewPane
      preview={preview}
      error={error}
      notes={
        <>
          {markdown && (
            <p class="muted" role="note">
              {template ? "Markdown is previewed as last saved (with the subject above): save to see body changes." : "Markdown is previewed once the template is created."}
            </p>
          )}
          {jsonProblem && (
            <p class="error" role="status">
              {jsonProblem}
            </p>
          )}
        </>
      }
    >
      {preview && (
        <details class="transactional-text">
          <summary>Text version</summary>
          <pre>{preview.text}</pre>
        </details>
      )}
    </PreviewPane>
  )
}
