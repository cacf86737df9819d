import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { SelectField, TextField } from "../components/Field"
import { FilterSelect } from "../components/FilterSelect"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, formatNumber, toApiTime } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"
import { triggerText } from "./automationText"
import type { Automation } from "./automationTypes"
import { useAutomationNames } from "./useAutomationNames"

const TRIGGER_TYPES: ReadonlyArray<readonly [string, string]> = [
  ["subscribed", "Someone subscribes to the list"],
  ["tag_added", "A tag is added to a subscriber"],
  ["tag_removed", "A tag is removed from a subscriber"],
  ["date", "A date and time (every member then)"],
  ["attribute_date", "A date in each subscriber's attributes"],
  ["webhook", "Called through the API"],
  ["none", "Nothing (no enrolment)"]
]

/** Automations: their state and list, filters by name and state, and a form to create one. */
export const Automations = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const status = params.get("status") ?? ""
  const automations = useApi<Collection<Automation>>(`/automations${query({ page: params.get("page"), "filter[search]": search, "filter[status]": status })}`, 10_000)
  const { names, lists, error } = useAutomationNames()
  const canWrite = useCan("write")
  return (
    <Page title="Automations">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={search} />
        <FilterSelect label="Status" param="status" value={status} values={["started", "paused"]} />
      </form>
      <ErrorMessage error={automations.error ?? error} />
      <DataTable
        caption="Automations"
        rows={automations.data?.data}
        rowKey={(automation) => automation.uuid}
        empty={search || status ? "No automation matches." : "No automations yet: create the first one below."}
        columns={[
          { title: "Name", cell: (a) => <Link href={`/automations/${a.uuid}`}>{a.name}</Link> },
          { title: "Status", cell: (a) => <Badge value={a.status} /> },
          { title: "List", cell: (a) => (a.email_list_uuid ? <Link href={`/lists/${a.email_list_uuid}`}>{names.list(a.email_list_uuid)}</Link> : "–") },
          { title: "Trigger", wide: true, cell: (a) => triggerText(a.trigger, names.list(a.email_list_uuid)) },
          { title: "Steps", numeric: true, wide: true, cell: (a) => formatNumber(a.actions.length) },
          { title: "Created", wide: true, cell: (a) => formatDate(a.created_at) }
        ]}
      />
      <Pager meta={automations.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && <NewAutomation lists={lists} />}
    </Page>
  )
}

const NewAutomation = ({ lists }: { lists: ReadonlyArray<EmailList> | undefined }) => {
  const [name, setName] = useState("")
  const [list, setList] = useState("")
  const [type, setType] = useState("subscribed")
  const [tag, setTag] = useState("")
  const [at, setAt] = useState("")
  const [repeat, setRepeat] = useState("none")
  const [attribute, setAttribute] = useState("")
  const action = useAction()
  const chosenList = list || lists?.[0]?.uuid || ""
  const trigger =
    type === "tag_added" || type === "tag_removed"
      ? { type, tag }
      : type === "date"
      ? { type, at: at === "" ? "" : toApiTime(at), repeat }
      : type === "attribute_date"
      ? { type, attribute, yearly: true }
      : { type }
  const submit = async (event: Event) => {
    event.preventDefault()
    let created: { data: Automation } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: Automation }>("/automations", { name, email_list_uuid: chosenList || null, trigger, actions: [] })
    })
    if (ok && created) navigate(`/automations/${created.data.uuid}`)
  }
  return (
    <Panel title="New automation">
      {lists?.length === 0 && (
        <p class="notice">
          An automation enrols the members of an email list: <Link href="/lists">create a list</Link> first.
        </p>
      )}
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
        <SelectField label="Email list" name="email_list_uuid" value={chosenList} onValue={setList} error={action.error} options={(lists ?? []).map((l) => [l.uuid, l.name] as const)} />
        <SelectField label="Starts when" name="trigger.type" value={type} onValue={setType} error={action.error} options={TRIGGER_TYPES} />
        {(type === "tag_added" || type === "tag_removed") && <TextField label="Tag" name="trigger.tag" value={tag} onValue={setTag} error={action.error} required />}
        {type === "date" && (
          <>
            <TextField label="At (your time)" name="trigger.at" type="datetime-local" value={at} onValue={setAt} error={action.error} required />
            <SelectField label="Repeat" name="trigger.repeat" value={repeat} onValue={setRepeat} error={action.error} options={[["none", "Once"], ["daily", "Daily"], ["monthly", "Monthly"], ["yearly", "Yearly"]]} />
          </>
        )}
        {type === "attribute_date" && (
          <TextField label="Attribute holding the date" name="trigger.attribute" value={attribute} onValue={setAttribute} error={action.error} required hint="An extra attribute such as birthday (YYYY-MM-DD); every year. Change the offset in the definition." />
        )}
        <FormError error={action.error} fields={["name", "email_list_uuid", "trigger.type", "trigger.tag", "trigger.at", "trigger.repeat", "trigger.attribute"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Create automation
          </button>
          <span class="muted">Its steps are added on the next screen; it starts paused.</span>
        </div>
      </form>
    </Panel>
  )
}
