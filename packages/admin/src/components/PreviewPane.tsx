import type { ComponentChildren } from "preact"
import type { ApiError } from "../api/client"

/** A rendered mail in a sandboxed frame (nothing in it runs) with its subject and the render's error; `notes` go first, `children` last. */
export const PreviewPane = ({ preview, error, notes, children }: {
  preview: { readonly subject: string; readonly html: string } | undefined
  error: ApiError | undefined
  notes?: ComponentChildren
  children?: ComponentChildren
}) => {
  const problems = error ? Object.values(error.errors).flat() : []
  return (
    <div class="preview">
      {notes}
      <p class="preview-subject">
        <span class="muted">Subject:</span> {preview?.subject ?? "…"}
      </p>
      {error && (
        <p class="error" role="status">
          {problems.length > 0 ? problems.join(" ") : error.message}
        </p>
      )}
      <iframe title="Preview of the mail" sandbox="" srcdoc={preview?.html ?? ""} class="preview-frame" />
      {children}
    </div>
  )
}
