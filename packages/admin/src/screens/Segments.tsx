import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList, Segment } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { formatNumber } from "../format"
import { Link } from "../router"

const tagList = (text: string) => text.split(",").map((tag) => tag.trim()).filter(Boolean)

/** The tag segments of a list: who each one holds (counted live), create, edit and delete. */
export const Segments = ({ list }: { list: string }) => {
  const emailList = useApi<{ data: EmailList }>(`/email-lists/${list}`)
  const segments = useApi<Collection<Segment>>(`/email-lists/${list}/segments?per_page=100`)
  const canWrite = useCan("write")
  const action = useAction()
  const [editing, setEditing] = useState<Segment | null | undefined>(undefined)
  return (
    <Page
      title={`Segments${emailList.data ? ` of ${emailList.data.data.name}` : ""}`}
      back={<Link href={`/lists/${list}`}>← {emailList.data?.data.name ?? "List"}</Link>}
      actions={canWrite && <button type="button" class="primary" onClick={() => setEditing(null)}>New segment</button>}
    >
      <ErrorMessage error={segments.error ?? action.error} />
      {editing !== undefined && <SegmentForm key={editing?.uuid ?? "new"} list={list} segment={editing} onDone={() => { setEditing(undefined); segments.reload() }} />}
      <DataTable
        caption="Segments"
        rows={segments.data?.data}
        rowKey={(segment) => segment.uuid}
        empty="No segments yet. A segment picks subscribers by their tags; campaigns can go to a segment only."
        columns={[
          { title: "Segment", cell: (segment) => segment.name },
          { title: "Rule", cell: (segment) => describe(segment) },
          { title: "Subscribers", numeric: true, cell: (segment) => <SegmentSize list={list} segment={segment.uuid} /> },
          ...(canWrite
            ? [{
              title: "Actions",
              cell: (segment: Segment) => (
                <div class="actions">
                  <button type="button" onClick={() => setEditing(segment)}>Edit</button>
                  <ConfirmButton danger question={`Delete the segment ${segment.name}?`} onConfirm={() => action.run(() => api.delete(`/email-lists/${list}/segments/${segment.uuid}`)).then(() => segments.reload())}>
                    Delete
                  </ConfirmButton>
                </div>
              )
            }]
            : [])
        ]}
      />
    </Page>
  )
}

const describe = (segment: Segment): string => {
  const parts = []
  if (segment.positive_tags.length > 0) parts.push(`with ${segment.all_positive_tags_required ? "all of" : "any of"} ${segment.positive_tags.join(", ")}`)
  if (segment.negative_tags.length > 0) parts.push(`without ${segment.all_negative_tags_required ? "all of" : "any of"} ${segment.negative_tags.join(", ")}`)
  return parts.length === 0 ? "everyone" : parts.join(", ")
}

const SegmentSize = ({ list, segment }: { list: string; segment: string }) => {
  const count = useApi<Collection<unknown>>(`/email-lists/${list}/subscribers?filter[segment_uuid]=${segment}&filter[status]=subscribed&per_page=1`)
  return <>{formatNumber(count.data?.meta.total)}</>
}

const SegmentForm = ({ list, segment, onDone }: { list: string; segment: Segment | null; onDone: () => void }) => {
  const [name, setName] = useState(segment?.name ?? "")
  const [positive, setPositive] = useState(segment?.positive_tags.join(", ") ?? "")
  const [allPositive, setAllPositive] = useState(segment?.all_positive_tags_required ?? false)
  const [negative, setNegative] = useState(segment?.negative_tags.join(", ") ?? "")
  const [allNegative, setAllNegative] = useState(segment?.all_negative_tags_required ?? false)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    const body = { name, positive_tags: tagList(positive), negative_tags: tagList(negative), all_positive_tags_required: allPositive, all_negative_tags_required: allNegative }
    const ok = await action.run(() => (segment ? api.put(`/email-lists/${list}/segments/${segment.uuid}`, body) : api.post(`/email-lists/${list}/segments`, body)))
    if (ok) onDone()
  }
  return (
    <Panel title={segment ? `Edit ${segment.name}` : "New segment"}>
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
        <TextField label="With the tags" name="positive_tags" value={positive} onValue={setPositive} error={action.error} hint="Comma-separated tag names." />
        <CheckField label="Needs all of these tags (else any one)" name="all_positive_tags_required" checked={allPositive} onChecked={setAllPositive} />
        <TextField label="Without the tags" name="negative_tags" value={negative} onValue={setNegative} error={action.error} />
        <CheckField label="Leaves out only those with all of these (else any one)" name="all_negative_tags_required" checked={allNegative} onChecked={setAllNegative} />
        <FormError error={action.error} fields={["name", "positive_tags", "negative_tags"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>Save</button>
          <button type="button" onClick={onDone}>Cancel</button>
        </div>
      </form>
    </Panel>
  )
}
