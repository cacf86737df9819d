import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList, Tag } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatNumber } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"

/** The tags of a list with their subscriber counts: create, rename, show in preferences, delete. */
export const Tags = ({ list }: { list: string }) => {
  const params = useSearchParams()
  const emailList = useApi<{ data: EmailList }>(`/email-lists/${list}`)
  const tags = useApi<Collection<Tag>>(`/email-lists/${list}/tags${query({ page: params.get("page"), "filter[search]": params.get("search"), sort: "-subscriber_count" })}`)
  const canWrite = useCan("write")
  const action = useAction()
  return (
    <Page title={`Tags${emailList.data ? ` of ${emailList.data.data.name}` : ""}`} back={<Link href={`/lists/${list}`}>← {emailList.data?.data.name ?? "List"}</Link>}>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={params.get("search") ?? ""} />
      </form>
      <ErrorMessage error={tags.error ?? action.error} />
      <DataTable
        caption="Tags"
        rows={tags.data?.data}
        rowKey={(tag) => tag.uuid}
        empty="No tags yet. Tags come from subscribers, imports and automations, or are created here."
        columns={[
          { title: "Tag", cell: (tag) => <Link href={`/lists/${list}/subscribers?tag=${encodeURIComponent(tag.name)}`}>{tag.name}</Link> },
          { title: "Subscribers", numeric: true, cell: (tag) => formatNumber(tag.subscriber_count) },
          { title: "In preferences", wide: true, cell: (tag) => (tag.visible_in_preferences ? "shown" : "hidden") },
          ...(canWrite
            ? [{
              title: "Actions",
              cell: (tag: Tag) => (
                <div class="actions">
                  <button type="button" onClick={() => action.run(() => api.put(`/email-lists/${list}/tags/${tag.uuid}`, { name: tag.name, visible_in_preferences: !tag.visible_in_preferences })).then(() => tags.reload())}>
                    {tag.visible_in_preferences ? "Hide" : "Show"} in preferences
                  </button>
                  <ConfirmButton danger question={`Delete the tag ${tag.name}? Subscribers keep everything else.`} onConfirm={() => action.run(() => api.delete(`/email-lists/${list}/tags/${tag.uuid}`)).then(() => tags.reload())}>
                    Delete
                  </ConfirmButton>
                </div>
              )
            }]
            : [])
        ]}
      />
      <Pager meta={tags.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && <NewTag list={list} onCreated={tags.reload} />}
    </Page>
  )
}

const NewTag = ({ list, onCreated }: { list: string; onCreated: () => void }) => {
  const [name, setName] = useState("")
  const [visible, setVisible] = useState(false)
  const action = useAction()
  return (
    <Panel title="New tag">
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault()
          if (await action.run(() => api.post(`/email-lists/${list}/tags`, { name, visible_in_preferences: visible }))) {
            setName("")
            onCreated()
          }
        }}
      >
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
        <CheckField label="Shown in the subscriber's preferences" name="visible_in_preferences" checked={visible} onChecked={setVisible} />
        <button type="submit" disabled={action.busy}>Create tag</button>
      </form>
      <FormError error={action.error} fields={["name"]} />
    </Panel>
  )
}
