import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"
import { eventsText, isAll, type Webhook } from "./webhookTypes"
import { WebhookEventsChoice } from "./WebhookEventsChoice"
import { WebhookState } from "./WebhookState"

/** Outgoing webhooks: their endpoints, events and state, and a form to add one (its secret shown once). */
export const Webhooks = () => {
  const params = useSearchParams()
  const webhooks = useApi<Collection<Webhook>>(`/webhooks${query({ page: params.get("page"), sort: "name" })}`, 10_000)
  const canWrite = useCan("write")
  const [created, setCreated] = useState<Webhook | undefined>(undefined)
  return (
    <Page title="Webhooks">
      <p class="muted">Mailroom posts each event to these URLs, signed per Standard Webhooks with the webhook's secret, and retries for about a day.</p>
      {created && <CreatedSecret webhook={created} onClose={() => setCreated(undefined)} />}
      <ErrorMessage error={webhooks.error} />
      <DataTable
        caption="Webhooks"
        rows={webhooks.data?.data}
        rowKey={(webhook) => webhook.uuid}
        empty="No webhooks yet."
        columns={[
          { title: "Name", cell: (w) => <Link href={`/webhooks/${w.uuid}`}>{w.name}</Link> },
          { title: "URL", wide: true, cell: (w) => <span class="url">{w.url}</span> },
          { title: "Events", wide: true, cell: (w) => eventsText(w.events) },
          { title: "State", cell: (w) => <WebhookState webhook={w} /> },
          { title: "Created", wide: true, cell: (w) => formatDate(w.created_at) }
        ]}
      />
      <Pager meta={webhooks.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && (
        <NewWebhook
          onCreated={(webhook) => {
            setCreated(webhook)
            webhooks.reload()
          }}
        />
      )}
    </Page>
  )
}

/** The notice of a created webhook with its signing secret, shown only once. */
const CreatedSecret = ({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) => (
  <div class="notice webhook-secret" role="status">
    <p>
      <strong>
        <Link href={`/webhooks/${webhook.uuid}`}>{webhook.name}</Link> was created.
      </strong>{" "}
      Its signing secret is shown only now: copy it to the receiving application.
    </p>
    {webhook.secret ? <code class="secret">{webhook.secret}</code> : <p>The answer did not include the secret.</p>}
    <p>
      <button type="button" onClick={onClose}>
        I have copied it
      </button>
    </p>
  </div>
)

const NewWebhook = ({ onCreated }: { onCreated: (webhook: Webhook) => void }) => {
  const [name, setName] = useState("")
  const [url, setUrl] = useState("")
  const [events, setEvents] = useState<string[]>(["*"])
  const [enabled, setEnabled] = useState(true)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    let created: { data: Webhook } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: Webhook }>("/webhooks", { name: name || null, url, events, enabled })
    })
    if (ok && created) {
      setName("")
      setUrl("")
      setEvents(["*"])
      onCreated(created.data)
    }
  }
  return (
    <Panel title="New webhook">
      <form class="grid-form" onSubmit={submit}>
        <TextField label="URL" name="url" type="url" value={url} onValue={setUrl} error={action.error} required placeholder="https://app.example.com/hooks/mailroom" />
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} hint="Empty: the URL's host." />
        <WebhookEventsChoice events={events} onEvents={setEvents} error={action.error} />
        <CheckField label="Enabled" name="enabled" checked={enabled} onChecked={setEnabled} />
        <FormError error={action.error} fields={["url", "name", "events"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy || (!isAll(events) && events.length === 0)}>
            Create webhook
          </button>
        </div>
      </form>
    </Panel>
  )
}
