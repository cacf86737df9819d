/** A failed API call: the HTTP status, the server's `message` and, for 422, the errors of each field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, ReadonlyArray<string>> = {}
  ) {
    super(message)
  }
}

/** The paginated envelope of every collection. */
export interface Collection<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: {
    readonly current_page: number
    readonly last_page: number
    readonly per_page: number
    readonly total: number
    readonly from: number | null
    readonly to: number | null
  }
}

const TOKEN_KEY = "mailroom.token"

/** The API token of this browser tab (session storage: it ends with the tab). */
export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY)

/** Keeps the token for this tab, or forgets it with null. */
export const storeToken = (token: string | null): void => {
  if (token === null) sessionStorage.removeItem(TOKEN_KEY)
  else sessionStorage.setItem(TOKEN_KEY, token)
}

let onUnauthorized: () => void = () => {}

/** What to do when the server answers 401 (the token was revoked): the app goes back to the log-in form. */
export const whenUnauthorized = (handler: () => void): void => {
  onUnauthorized = handler
}

/** A query string from parameters; undefined, null and "" values are left out. */
export const query = (params: Record<string, string | number | boolean | null | undefined>): string => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value))
  }
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

const messageOf = (status: number, body: unknown): string =>
  typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
    ? body.message
    : status >= 500
    ? `The server failed (${status}). Try again in a moment.`
    : `The request failed (${status}).`

/** Calls the API at `/api{path}` with this tab's token; JSON in, JSON out, an ApiError for every non-2xx answer. */
export const request = async <A = unknown>(method: string, path: string, body?: unknown, token = storedToken()): Promise<A> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (token !== null) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers["content-type"] = "application/json"
  let response: Response
  try {
    response = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  } catch {
    throw new ApiError(0, "The server cannot be reached. Check that Mailroom is running.")
  }
  const text = await response.text()
  let parsed: unknown = undefined
  if (text !== "") {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
  }
  if (!response.ok) {
    if (response.status === 401 && token !== null && token === storedToken()) onUnauthorized()
    const errors = typeof parsed === "object" && parsed !== null && "errors" in parsed ? (parsed.errors as Record<string, string[]>) : {}
    throw new ApiError(response.status, messageOf(response.status, parsed), errors ?? {})
  }
  return parsed as A
}

/** The API, by method. */
export const api = {
  get: <A>(path: string) => request<A>("GET", path),
  post: <A>(path: string, body?: unknown) => request<A>("POST", path, body ?? {}),
  put: <A>(path: string, body: unknown) => request<A>("PUT", path, body),
  patch: <A>(path: string, body: unknown) => request<A>("PATCH", path, body),
  delete: (path: string, body?: unknown) => request<void>("DELETE", path, body)
}
