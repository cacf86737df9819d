import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList, Subscriber, Tag } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { FilterSelect } from "../components/FilterSelect"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, fullName } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"

/** A subscriber's state from its dates (the API's status filter uses the same three names). */
export const subscriberStatus = (subscriber: Subscriber): string =>
  subscriber.unsubscribed_at !== null ? "unsubscribed" : subscriber.subscribed_at !== null ? "subscribed" : "unconfirmed"

/** The subscribers of a list: search, status and tag filters, paging over any number of rows, and a form to add one. */
export const Subscribers = ({ list }: { list: string }) => {
  const params = useSearchParams()
  const filters = { search: params.get("search") ?? "", status: params.get("status") ?? "", tag: params.get("tag") ?? "", page: params.get("page") ?? "1" }
  const emailList = useApi<{ data: EmailList }>(`/email-lists/${list}`)
  const tags = useApi<Collection<Tag>>(`/email-lists/${list}/tags?per_page=100`)
  const subscribers = useApi<Collection<Subscriber>>(
    `/email-lists/${list}/subscribers${query({ page: filters.page, "filter[search]": filters.search, "filter[status]": filters.status, "filter[tags]": filters.tag })}`
  )
  const canWrite = useCan("write")
  const [adding, setAdding] = useState(false)
  return (
    <Page
      title={`Subscribers${emailList.data ? ` of ${emailList.data.data.name}` : ""}`}
      back={<Link href={`/lists/${list}`}>← {emailList.data?.data.name ?? "List"}</Link>}
      actions={
        canWrite && (
          <button type="button" class="primary" aria-expanded={adding} onClick={() => setAdding(!adding)}>
            Add subscriber
          </button>
        )
      }
    >
      {adding && <NewSubscriber list={list} onAdded={() => { setAdding(false); subscribers.reload() }} />}
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={filters.search} placeholder="email, name or tag" />
        <FilterSelect label="Status" param="status" value={filters.status} values={["subscribed", "unconfirmed", "unsubscribed"]} />
        <label>
          Tag{" "}
          <select value={filters.tag} onChange={(event) => setSearchParams({ tag: event.currentTarget.value, page: null })}>
            <option value="">any</option>
            {tags.data?.data.map((tag) => (
              <option key={tag.uuid} value={tag.name}>
                {tag.name}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage error={subscribers.error} />
      <DataTable
        caption="Subscribers"
        rows={subscribers.data?.data}
        rowKey={(subscriber) => subscriber.uuid}
        empty="No subscriber matches."
        columns={[
          { title: "Email", cell: (s) => <Link href={`/subscribers/${s.uuid}`}>{s.email}</Link> },
          { title: "Name", wide: true, cell: (s) => fullName(s.first_name, s.last_name) || "–" },
          { title: "Status", cell: (s) => <Badge value={subscriberStatus(s)} /> },
          { title: "Tags", wide: true, cell: (s) => s.tags.join(", ") || "–" },
          { title: "Created", wide: true, cell: (s) => formatDate(s.created_at) }
        ]}
      />
      <Pager meta={subscribers.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Page>
  )
}

const NewSubscriber = ({ list, onAdded }: { list: string; onAdded: () => void }) => {
  const [email, setEmail] = useState("")
  const [firstName, setFirstName] = useState("")
  const [lastName, setLastName] = useState("")
  const [tags, setTags] = useState("")
  const [skip, setSkip] = useState(true)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    const ok = await action.run(() =>
      api.post(`/email-lists/${list}/subscribers`, {
        email,
        first_name: firstName || null,
        last_name: lastName || null,
        tags: tags.split(",").map((tag) => tag.trim()).filter(Boolean),
        skip_confirmation: skip,
        strict: true
      })
    )
    if (ok) onAdded()
  }
  return (
    <Panel title="New subscriber">
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Email" name="email" type="email" value={email} onValue={setEmail} error={action.error} required />
        <TextField label="First name" name="first_name" value={firstName} onValue={setFirstName} error={action.error} />
        <TextField label="Last name" name="last_name" value={lastName} onValue={setLastName} error={action.error} />
        <TextField label="Tags" name="tags" value={tags} onValue={setTags} error={action.error} hint="Comma-separated." />
        <CheckField label="Subscribed without a confirmation mail" name="skip_confirmation" checked={skip} onChecked={setSkip} hint="Only for people who already agreed to receive mail." />
        <FormError error={action.error} fields={["email", "first_name", "last_name", "tags"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Add
          </button>
        </div>
      </form>
    </Panel>
  )
}
