import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList } from "../api/types"
import { EMAIL_LIST_FIELDS, writable } from "../api/writable"
import { useAction, useApi, useSave } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { formatNumber } from "../format"
import { Link, navigate } from "../router"

const STATUSES = ["subscribed", "unconfirmed", "unsubscribed"] as const

/** One list: its sizes by status, links to its subscribers, tags and segments, and its settings. */
export const ListDetail = ({ list }: { list: string }) => {
  const loaded = useApi<{ data: EmailList }>(`/email-lists/${list}`)
  const canWrite = useCan("write")
  const action = useAction()
  const data = loaded.data?.data
  return (
    <Page
      title={data?.name ?? "Email list"}
      back={<Link href="/lists">← Email lists</Link>}
      actions={
        <>
          <Link class="button" href={`/lists/${list}/subscribers`}>
            Subscribers
          </Link>
          <Link class="button" href={`/lists/${list}/tags`}>
            Tags
          </Link>
          <Link class="button" href={`/lists/${list}/segments`}>
            Segments
          </Link>
          {canWrite && (
            <ConfirmButton danger question={`Delete the list ${data?.name ?? ""} with all its subscribers?`} onConfirm={() => action.run(() => api.delete(`/email-lists/${list}`)).then((ok) => ok && navigate("/lists"))}>
              Delete
            </ConfirmButton>
          )}
        </>
      }
    >
      <ErrorMessage error={loaded.error ?? action.error} />
      <Sizes list={list} />
      {data && <ListSettings list={data} editable={canWrite} onSaved={loaded.reload} />}
    </Page>
  )
}

const Sizes = ({ list }: { list: string }) => {
  const counts = STATUSES.map((status) => useApi<Collection<unknown>>(`/email-lists/${list}/subscribers?filter[status]=${status}&per_page=1`))
  return (
    <dl class="stats">
      {STATUSES.map((status, i) => (
        <div key={status}>
          <dt>{status}</dt>
          <dd>
            <Link href={`/lists/${list}/subscribers?status=${status}`}>{formatNumber(counts[i]!.data?.meta.total)}</Link>
          </dd>
        </div>
      ))}
    </dl>
  )
}

const ListSettings = ({ list, editable, onSaved }: { list: EmailList; editable: boolean; onSaved: () => void }) => {
  const [name, setName] = useState(list.name)
  const [fromEmail, setFromEmail] = useState(list.default_from_email ?? "")
  const [fromName, setFromName] = useState(list.default_from_name ?? "")
  const [replyTo, setReplyTo] = useState(list.default_reply_to_email ?? "")
  const [confirm, setConfirm] = useState(list.requires_confirmation)
  const action = useSave(JSON.stringify([name, fromEmail, fromName, replyTo, confirm]))
  const submit = async (event: Event) => {
    event.preventDefault()
    const ok = await action.run(() =>
      api.put(`/email-lists/${list.uuid}`, {
        ...writable(list, EMAIL_LIST_FIELDS),
        name,
        default_from_email: fromEmail,
        default_from_name: fromName || null,
        default_reply_to_email: replyTo || null,
        requires_confirmation: confirm
      })
    )
    if (ok) onSaved()
  }
  return (
    <Panel title="Settings">
      <form class="grid-form" onSubmit={submit}>
        <fieldset disabled={!editable}>
          <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
          <TextField label="From address" name="default_from_email" type="email" value={fromEmail} onValue={setFromEmail} error={action.error} required />
          <TextField label="From name" name="default_from_name" value={fromName} onValue={setFromName} error={action.error} />
          <TextField label="Reply-to address" name="default_reply_to_email" type="email" value={replyTo} onValue={setReplyTo} error={action.error} />
          <CheckField label="Double opt-in: new subscribers confirm by mail" name="requires_confirmation" checked={confirm} onChecked={setConfirm} />
        </fieldset>
        <FormError error={action.error} fields={["name", "default_from_email", "default_from_name", "default_reply_to_email"]} />
        {editable && <SaveActions busy={action.busy} saved={action.saved} />}
      </form>
    </Panel>
  )
}
