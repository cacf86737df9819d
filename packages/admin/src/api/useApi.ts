import { useCallback, useEffect, useState } from "preact/hooks"
import { api, ApiError } from "./client"

/** The state of a GET: its data once loaded, the error of the last attempt, and a way to load it again. */
export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: ApiError | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/**
 * Loads `GET /api{path}` and again whenever the path changes; with `every` (ms) it also refreshes on a timer while
 * the page is visible (progress bars, live counts). A null path loads nothing. Old data stays shown while reloading.
 */
export const useApi = <A>(path: string | null, every?: number): Loaded<A> => {
  const [state, setState] = useState<{ data: A | undefined; error: ApiError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: path !== null
  })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    if (path === null) return
    let cancelled = false
    setState((previous) => ({ ...previous, loading: true }))
    api.get<A>(path).then(
      (data) => !cancelled && setState({ data, error: undefined, loading: false }),
      (error: unknown) =>
        !cancelled &&
        setState((previous) => ({
          data: previous.data,
          error: error instanceof ApiError ? error : new ApiError(0, String(error)),
          loading: false
        }))
    )
    return () => {
      cancelled = true
    }
  }, [path, tick])
  useEffect(() => {
    if (every === undefined || path === null) return
    const timer = setInterval(() => document.visibilityState === "visible" && setTick((t) => t + 1), every)
    return () => clearInterval(timer)
  }, [every, path])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { ...state, reload }
}

/** The state of a change the user asked for: whether it runs, and its error (field errors for a 422). */
export interface Action {
  readonly busy: boolean
  readonly error: ApiError | undefined
  /** Runs `work`; resolves true when it succeeded. */
  readonly run: (work: () => Promise<unknown>) => Promise<boolean>
  readonly clear: () => void
}

/** Runs changes one at a time and keeps the last error to show it. */
export const useAction = (): Action => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await work()
      return true
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)))
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run, clear: useCallback(() => setError(undefined), []) }
}

/** A form's save: an Action that also tells whether the last save succeeded with nothing changed since. */
export interface Save extends Action {
  readonly saved: boolean
  /** The form changed since its last save: "Saved." goes away. */
  readonly changed: () => void
}

/**
 * Saves a form: `saved` turns off when a save starts and on when it succeeds, and off again whenever `form` (the
 * form's values, as text) changes.
 */
export const useSave = (form?: string): Save => {
  const action = useAction()
  const [saved, setSaved] = useState(false)
  useEffect(() => setSaved(false), [form])
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setSaved(false)
    const ok = await action.run(work)
    setSaved(ok)
    return ok
  }, [action.run])
  return { ...action, run, saved, changed: useCallback(() => setSaved(false), []) }
}
