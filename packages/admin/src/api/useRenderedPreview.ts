import { useEffect, useState } from "preact/hooks"
import { api, ApiError } from "./client"

/** A preview the server renders: its last answer and the error of the last attempt. */
export interface RenderedPreview<A> {
  readonly preview: A | undefined
  readonly error: ApiError | undefined
}

/**
 * Renders `body` through `POST /api{path}` half a second after it last changed (earlier pending renders are
 * dropped); a null body renders nothing and keeps the last preview.
 */
export const useRenderedPreview = <A>(path: string, body: unknown): RenderedPreview<A> => {
  const [preview, setPreview] = useState<A | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const key = JSON.stringify(body)
  useEffect(() => {
    if (body === null) return
    let cancelled = false
    const timer = setTimeout(() => {
      api.post<{ data: A }>(path, body).then(
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
  return { preview, error }
}
