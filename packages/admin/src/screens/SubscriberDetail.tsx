import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { Send, Subscriber } from "../api/types"
import { useAction, useApi, useSave } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextArea, TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { formatDate, formatNumber } from "../format"
import { Link, navigate } from "../router"
import { subscriberStatus } from "./Subscribers"

/** One subscriber: state and its changes, details, tags and the mails sent to them. */
export const SubscriberDetail = ({ subscriber }: { subscriber: string }) => {
  const loaded = useApi<{ data: Subscriber }>(`/subscribers/${subscriber}`)
  const sends = useApi<Collection<Send>>(`/sends?filter[subscriber_uuid]=${subscriber}&per_page=50`)
  const canWrite = useCan("write")
  const action = useAction()
  const data = loaded.data?.data
  const status = data ? subscriberStatus(data) : undefined
  const act = (path: string) => action.run(() => api.post(`/subscribers/${subscriber}/${path}`)).then((ok) => ok && loaded.reload())
  return (
    <Page
      title={data?.email ?? "Subscriber"}
      back={data && <Link href={`/lists/${data.email_list_uuid}/subscribers`}>← Subscribers</Link>}
      actions={
        canWrite &&
        data && (
          <>
            {status === "unconfirmed" && (
              <>
                <button type="button" onClick={() => act("confirm")}>Confirm</button>
                <button type="button" onClick={() => act("resend-confirmation")}>Resend confirmation</button>
              </>
            )}
            {status === "subscribed" && (
              <ConfirmButton question={`Unsubscribe ${data.email}?`} onConfirm={() => act("unsubscribe")}>
                Unsubscribe
              </ConfirmButton>
            )}
            {status === "unsubscribed" && <button type="button" onClick={() => act("resubscribe")}>Resubscribe</button>}
            <ConfirmButton danger question={`Delete ${data.email} and their history?`} onConfirm={() => action.run(() => api.delete(`/subscribers/${subscriber}`)).then((ok) => ok && navigate(`/lists/${data.email_list_uuid}/subscribers`))}>
              Delete
            </ConfirmButton>
          </>
        )
      }
    >
      <ErrorMessage error={loaded.error ?? action.error} />
      {data && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={status!} />
            </dd>
            <dt>Subscribed</dt>
            <dd>{formatDate(data.subscribed_at)}</dd>
            <dt>Unsubscribed</dt>
            <dd>{formatDate(data.unsubscribed_at)}</dd>
            <dt>Created</dt>
            <dd>{formatDate(data.created_at)}</dd>
          </dl>
          <SubscriberTags subscriber={data} editable={canWrite} onChanged={loaded.reload} />
          <SubscriberForm key={data.uuid} subscriber={data} editable={canWrite} onSaved={loaded.reload} />
        </>
      )}
      <Panel title="Sends">
        <ErrorMessage error={sends.error} />
        <DataTable
          caption="Mails sent to this subscriber"
          rows={sends.data?.data}
          rowKey={(send) => send.uuid}
          empty="Nothing was sent to this subscriber yet."
          columns={[
            {
              title: "Mail",
              cell: (send) =>
                send.campaign_uuid ? <Link href={`/campaigns/${send.campaign_uuid}`}>Campaign</Link> : send.automation_mail_uuid ? <Link href={`/automation-mails/${send.automation_mail_uuid}`}>Automation mail</Link> : "Transactional"
            },
            { title: "Sent", cell: (send) => (send.failed_at ? <span class="error-text">failed: {send.failure_reason}</span> : formatDate(send.sent_at)) },
            { title: "Opens", numeric: true, cell: (send) => formatNumber(send.open_count ?? 0) },
            { title: "Clicks", numeric: true, cell: (send) => formatNumber(send.click_count ?? 0) }
          ]}
        />
      </Panel>
    </Page>
  )
}

const SubscriberTags = ({ subscriber, editable, onChanged }: { subscriber: Subscriber; editable: boolean; onChanged: () => void }) => {
  const [tag, setTag] = useState("")
  const action = useAction()
  const change = (method: "post" | "delete", tags: string[]) =>
    action.run(() => (method === "post" ? api.post(`/subscribers/${subscriber.uuid}/tags`, { tags }) : api.delete(`/subscribers/${subscriber.uuid}/tags`, { tags }))).then((ok) => {
      if (ok) {
        setTag("")
        onChanged()
      }
    })
  return (
    <Panel title="Tags">
      <ul class="chips" aria-label="Tags">
        {subscriber.tags.length === 0 && <li class="muted">No tags.</li>}
        {subscriber.tags.map((name) => (
          <li key={name} class="chip">
            {name}
            {editable && (
              <button type="button" class="chip-remove" aria-label={`Remove tag ${name}`} onClick={() => change("delete", [name])}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {editable && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            if (tag.trim() !== "") void change("post", [tag.trim()])
          }}
        >
          <TextField label="Add a tag" name="tags" value={tag} onValue={setTag} error={action.error} />
          <button type="submit" disabled={action.busy}>Add tag</button>
        </form>
      )}
      <FormError error={action.error} fields={["tags"]} />
    </Panel>
  )
}

const SubscriberForm = ({ subscriber, editable, onSaved }: { subscriber: Subscriber; editable: boolean; onSaved: () => void }) => {
  const [email, setEmail] = useState(subscriber.email)
  const [firstName, setFirstName] = useState(subscriber.first_name ?? "")
  const [lastName, setLastName] = useState(subscriber.last_name ?? "")
  const initialAttributes = Array.isArray(subscriber.extra_attributes) ? {} : subscriber.extra_attributes
  const [attributes, setAttributes] = useState(JSON.stringify(initialAttributes, null, 2))
  const [attributesError, setAttributesError] = useState<string | undefined>(undefined)
  const action = useSave()
  const submit = async (event: Event) => {
    event.preventDefault()
    action.changed()
    let extra: unknown
    try {
      extra = attributes.trim() === "" ? null : JSON.parse(attributes)
      setAttributesError(undefined)
    } catch {
      setAttributesError("Extra attributes must be JSON, for example {\"city\": \"Paris\"}.")
      return
    }
    const ok = await action.run(() =>
      api.patch(`/subscribers/${subscriber.uuid}`, { email, first_name: firstName || null, last_name: lastName || null, extra_attributes: extra, tags: [...subscriber.tags] })
    )
    if (ok) onSaved()
  }
  return (
    <Panel title="Details">
      <form class="grid-form" onSubmit={submit}>
        <fieldset disabled={!editable}>
          <TextField label="Email" name="email" type="email" value={email} onValue={setEmail} error={action.error} required />
          <TextField label="First name" name="first_name" value={firstName} onValue={setFirstName} error={action.error} />
          <TextField label="Last name" name="last_name" value={lastName} onValue={setLastName} error={action.error} />
          <TextArea label="Extra attributes (JSON)" name="extra_attributes" value={attributes} onValue={setAttributes} error={action.error} rows={4} mono />
          {attributesError && <p class="error" role="alert">{attributesError}</p>}
        </fieldset>
        <FormError error={action.error} fields={["email", "first_name", "last_name", "extra_attributes"]} />
        {editable && <SaveActions busy={action.busy} saved={action.saved} />}
      </form>
    </Panel>
  )
}
