import { useRenderedPreview } from "../api/useRenderedPreview"
import { PreviewPane } from "./PreviewPane"

/**
 * The mail as a recipient would get it, rendered by the server (`POST /api/campaigns/preview`) from the content being
 * edited, shown in a sandboxed frame (nothing in it runs). It re-renders half a second after the last change.
 */
export const MailPreview = ({ body }: { body: Record<string, unknown> }) => {
  const { preview, error } = useRenderedPreview<{ subject: string; html: string }>("/campaigns/preview", body)
  return <PreviewPane preview={preview} error={error} />
}
