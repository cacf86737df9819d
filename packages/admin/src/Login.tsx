import { useState } from "preact/hooks"
import { ApiError, storeToken } from "./api/client"
import { type Session, whoAmI } from "./api/session"
import { TextField } from "./components/Field"

/** The log-in form: an API token, checked against the server before it is kept for this tab. */
export const Login = ({ onSession, reason }: { onSession: (session: Session) => void; reason?: string | undefined }) => {
  const [token, setToken] = useState("")
  const [error, setError] = useState<string | undefined>(reason)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const session = await whoAmI(token.trim())
      storeToken(token.trim())
      onSession(session)
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? "This token is not valid: check it, or create one with `npm run mailroom -- token:create --name me`." : failure instanceof ApiError ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Mailroom</h1>
        <p>Sign in with an API token. It is kept in this tab only and forgotten when the tab closes.</p>
        <TextField label="API token" name="token" type="password" value={token} onValue={setToken} required autoComplete="current-password" />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy || token.trim() === ""}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  )
}
