import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, formatNumber } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

/** Email lists: their sizes, a search, and a form to create one. */
export const Lists = () => {
  const params = useSearchParams()
  const page = params.get("page") ?? "1"
  const search = params.get("search") ?? ""
  const lists = useApi<Collection<EmailList>>(`/email-lists${query({ page, "filter[search]": search, sort: "name" })}`)
  const canWrite = useCan("write")
  return (
    <Page title="Email lists">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={search} />
      </form>
      <ErrorMessage error={lists.error} />
      <DataTable
        caption="Email lists"
        rows={lists.data?.data}
        rowKey={(list) => list.uuid}
        empty={search ? "No list matches." : "No lists yet: create the first one below."}
        columns={[
          { title: "Name", cell: (list) => <Link href={`/lists/${list.uuid}`}>{list.name}</Link> },
          { title: "Active subscribers", numeric: true, cell: (list) => formatNumber(list.active_subscribers_count) },
          { title: "From", wide: true, cell: (list) => list.default_from_email ?? "–" },
          { title: "Created", wide: true, cell: (list) => formatDate(list.created_at) }
        ]}
      />
      <Pager meta={lists.data?.meta} onPage={(next) => setSearchParams({ page: next })} />
      {canWrite && <NewList />}
    </Page>
  )
}

const NewList = () => {
  const [name, setName] = useState("")
  const [fromEmail, setFromEmail] = useState("")
  const [fromName, setFromName] = useState("")
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    let created: { data: EmailList } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: EmailList }>("/email-lists", { name, default_from_email: fromEmail, default_from_name: fromName || null })
    })
    if (ok && created) navigate(`/lists/${created.data.uuid}`)
  }
  return (
    <Panel title="New list">
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
        <TextField label="From address" name="default_from_email" type="email" value={fromEmail} onValue={setFromEmail} error={action.error} required hint="Campaigns to this list are sent from this address." />
        <TextField label="From name" name="default_from_name" value={fromName} onValue={setFromName} error={action.error} />
        <FormError error={action.error} fields={["name", "default_from_email", "default_from_name"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Create list
          </button>
        </div>
      </form>
    </Panel>
  )
}
