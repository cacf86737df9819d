import { useContext, useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { type Ability, SessionContext, useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { formatDate } from "../format"

interface Token {
  readonly uuid: string
  readonly name: string
  readonly abilities: ReadonlyArray<Ability>
  readonly created_at: string
  readonly last_used_at?: string | null
}

const ABILITIES: ReadonlyArray<readonly [Ability, string]> = [
  ["all", "all: everything, including tokens"],
  ["read", "read: every GET"],
  ["write", "write: every change, sends included"],
  ["send", "send: only campaign sends, test mails and transactional mails"]
]

/** API tokens: who may use the API and what they may do. Only a token with `all` manages them. */
export const Tokens = () => {
  const manage = useCan("all")
  const session = useContext(SessionContext)
  const tokens = useApi<Collection<Token>>(manage ? "/tokens?per_page=100" : null)
  const action = useAction()
  return (
    <Page title="API tokens">
      {!manage ? (
        <p class="notice">Only a token with the <code>all</code> ability manages tokens. This one has {session?.abilities.join(", ")}.</p>
      ) : (
        <>
          <ErrorMessage error={tokens.error ?? action.error} />
          <DataTable
            caption="API tokens"
            rows={tokens.data?.data}
            rowKey={(token) => token.uuid}
            empty="No tokens."
            columns={[
              { title: "Name", cell: (t) => <>{t.name}{t.uuid === session?.uuid && <span class="muted"> (this session)</span>}</> },
              { title: "Abilities", cell: (t) => t.abilities.join(", ") },
              { title: "Created", wide: true, cell: (t) => formatDate(t.created_at) },
              { title: "Last used", wide: true, cell: (t) => formatDate(t.last_used_at) },
              {
                title: "Actions",
                cell: (t) => (
                  <ConfirmButton danger question={`Revoke ${t.name}? Programs using it stop working at once.`} onConfirm={() => action.run(() => api.delete(`/tokens/${t.uuid}`)).then(() => tokens.reload())}>
                    Revoke
                  </ConfirmButton>
                )
              }
            ]}
          />
          <NewToken onCreated={tokens.reload} />
        </>
      )}
    </Page>
  )
}

const NewToken = ({ onCreated }: { onCreated: () => void }) => {
  const [name, setName] = useState("")
  const [abilities, setAbilities] = useState<ReadonlyArray<Ability>>(["read"])
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    setSecret(undefined)
    let created: { data: Token & { token: string } } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: Token & { token: string } }>("/tokens", { name, abilities })
    })
    if (ok && created) {
      setSecret(created.data.token)
      setName("")
      onCreated()
    }
  }
  return (
    <Panel title="New token">
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required hint="Who or what uses it, e.g. the newsletter sign-up form." />
        <fieldset>
          <legend>Abilities</legend>
          {ABILITIES.map(([ability, label]) => (
            <CheckField
              key={ability}
              label={label}
              name={`ability-${ability}`}
              checked={abilities.includes(ability)}
              onChecked={(checked) => setAbilities(checked ? [...abilities, ability] : abilities.filter((a) => a !== ability))}
            />
          ))}
        </fieldset>
        <FormError error={action.error} fields={["name"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy || abilities.length === 0}>Create token</button>
        </div>
      </form>
      {secret && (
        <div class="notice" role="status">
          <p>Copy the token now: it is shown once and stored only as a hash.</p>
          <p><code class="secret">{secret}</code></p>
        </div>
      )}
    </Panel>
  )
}
