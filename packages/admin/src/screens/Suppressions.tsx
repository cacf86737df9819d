import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate } from "../format"
import { setSearchParams, useSearchParams } from "../router"

interface Suppression {
  readonly uuid: string
  readonly email: string
  readonly reason: string
  readonly created_at: string
}

const REASONS = ["", "manual", "hard_bounce", "spam_complaint"] as const

/** Addresses no mail goes to, whatever list they are in: search, filter by reason, add and remove. */
export const Suppressions = () => {
  const params = useSearchParams()
  const suppressions = useApi<Collection<Suppression>>(`/suppressions${query({ page: params.get("page"), "filter[search]": params.get("search"), "filter[reason]": params.get("reason"), sort: "-created_at" })}`)
  const canWrite = useCan("write")
  const action = useAction()
  return (
    <Page title="Suppressions">
      <p class="muted">Nothing is ever sent to a suppressed address: bounces and complaints add them, and so can you.</p>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={params.get("search") ?? ""} />
        <label>
          Reason{" "}
          <select value={params.get("reason") ?? ""} onChange={(event) => setSearchParams({ reason: event.currentTarget.value, page: null })}>
            {REASONS.map((reason) => <option key={reason} value={reason}>{reason === "" ? "any" : reason.replace(/_/g, " ")}</option>)}
          </select>
        </label>
      </form>
      <ErrorMessage error={suppressions.error ?? action.error} />
      <DataTable
        caption="Suppressed addresses"
        rows={suppressions.data?.data}
        rowKey={(s) => s.uuid}
        empty="No suppressed address."
        columns={[
          { title: "Email", cell: (s) => s.email },
          { title: "Reason", cell: (s) => <Badge value={s.reason} /> },
          { title: "Since", wide: true, cell: (s) => formatDate(s.created_at) },
          ...(canWrite
            ? [{
              title: "Actions",
              cell: (s: Suppression) => (
                <ConfirmButton question={`Allow mail to ${s.email} again?`} onConfirm={() => action.run(() => api.delete(`/suppressions/${s.uuid}`)).then(() => suppressions.reload())}>
                  Remove
                </ConfirmButton>
              )
            }]
            : [])
        ]}
      />
      <Pager meta={suppressions.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && <NewSuppression onAdded={suppressions.reload} />}
    </Page>
  )
}

const NewSuppression = ({ onAdded }: { onAdded: () => void }) => {
  const [email, setEmail] = useState("")
  const action = useAction()
  return (
    <Panel title="Suppress an address">
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault()
          if (await action.run(() => api.post("/suppressions", { email }))) {
            setEmail("")
            onAdded()
          }
        }}
      >
        <TextField label="Email" name="email" type="email" value={email} onValue={setEmail} error={action.error} required />
        <button type="submit" disabled={action.busy}>Suppress</button>
      </form>
      <FormError error={action.error} fields={["email"]} />
    </Panel>
  )
}
