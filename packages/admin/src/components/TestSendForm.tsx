import { useState } from "preact/hooks"
import { api } from "../api/client"
import { useAction } from "../api/useApi"
import { FormError } from "./ErrorMessage"
import { TextField } from "./Field"
import { Panel } from "./Page"

/** A form that sends a test of a mail to addresses the user types, through `POST /api{path}` with `{ email }`. */
export const TestSendForm = ({ path, hint = "Up to 10 addresses, comma-separated." }: { path: string; hint?: string }) => {
  const [email, setEmail] = useState("")
  const [sent, setSent] = useState<string | undefined>(undefined)
  const action = useAction()
  return (
    <Panel title="Test mail">
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault()
          setSent(undefined)
          if (await action.run(() => api.post(path, { email }))) setSent(email)
        }}
      >
        <TextField label="Send a test to" name="email" value={email} onValue={setEmail} error={action.error} required hint={hint} />
        <button type="submit" disabled={action.busy}>Send test</button>
      </form>
      <FormError error={action.error} fields={["email"]} />
      {sent && <p role="status">Test sent to {sent}.</p>}
    </Panel>
  )
}
