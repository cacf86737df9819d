import { useEffect, useState } from "preact/hooks"
import { api, ApiError } from "../api/client"

/**
 * The mail as a recipient would get it, rendered by the server (`POST /api/campaigns/preview`) from the content being
 * edited, shown in a sandboxed frame (nothing in it runs). It re-renders half a second after the last change.
 */
export const MailPreview = ({ body }: { body: Record<string, unknown> }) => {
  const [preview, setPreview] = useState<{ subject: string; html: string } | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const key = JSON.stringify(body)
  useEffect(() => {
    let cancelled = false
    const timer = setTimeout(() => {
      api.post<{ data: { subject: string; html: string } }>("/campaigns/preview", body).then(
        (response) => {
          if (cancelled) return
          setPreview(response.data)
          setError(undefined)
        },
        (failure: unknown) => !cancelled && setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)))
      )
    }, 500)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [key])
  const problems = error ? Object.values(error.errors).flat() : []
  return (
    <div class="preview">
      <p class="preview-subject">
        <span class="muted">Subject:</span> {preview?.subject ?? "…"}
      </p>
      {error && (
        <p class="error" role="status">
          {problems.length > 0 ? problems.join(" ") : error.message}
        </p>
      )}
      <iframe title="Preview of the mail" sandbox="" srcdoc={preview?.html ?? ""} class="preview-frame" />
    </div>
  )
}
