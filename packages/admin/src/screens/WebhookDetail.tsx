import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList } from "../api/types"
import { useAction, useApi, useSave } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { formatDate } from "../format"
import { Link, navigate } from "../router"
import { eventsText, isAll, type Webhook } from "./webhookTypes"
import { WebhookDeliveries } from "./WebhookDeliveries"
import { WebhookEventsChoice } from "./WebhookEventsChoice"
import { WebhookState } from "./WebhookState"

/** One webhook: its settings, and its deliveries with their outcome and a retry for those that did not get through. */
export const WebhookDetail = ({ webhook }: { webhook: string }) => {
  const loaded = useApi<{ data: Webhook }>(`/webhooks/${webhook}`, 10_000)
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100&sort=name")
  const canWrite = useCan("write")
  const action = useAction()
  const data = loaded.data?.data
  const listNames = data?.email_list_uuids?.map((uuid) => lists.data?.data.find((list) => list.uuid === uuid)?.name ?? uuid)
  return (
    <Page
      title={data?.name ?? "Webhook"}
      back={<Link href="/webhooks">← Webhooks</Link>}
      actions={
        canWrite &&
        data && (
          <ConfirmButton danger question={`Delete the webhook ${data.name}? Its pending deliveries are dropped.`} onConfirm={() => action.run(() => api.delete(`/webhooks/${webhook}`)).then((ok) => ok && navigate("/webhooks"))}>
            Delete
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={loaded.error ?? action.error} />
      {data && (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <WebhookState webhook={data} />
            </dd>
            {data.disabled_reason && (
              <>
                <dt>Disabled because</dt>
                <dd class="error-text">{data.disabled_reason}</dd>
              </>
            )}
            {data.failing_since && (
              <>
                <dt>Failing since</dt>
                <dd>{formatDate(data.failing_since)}</dd>
              </>
            )}
            <dt>URL</dt>
            <dd class="url">{data.url}</dd>
            <dt>Events</dt>
            <dd>{eventsText(data.events)}</dd>
            <dt>Lists</dt>
            <dd>{listNames ? listNames.join(", ") : "Events of every list"}</dd>
            <dt>Created</dt>
            <dd>{formatDate(data.created_at)}</dd>
          </dl>
          <WebhookSettings key={data.uuid} webhook={data} editable={canWrite} onSaved={loaded.reload} />
        </>
      )}
      <WebhookDeliveries webhook={webhook} />
    </Page>
  )
}

/** A webhook's URL, name, events and whether it is enabled, saved together. */
const WebhookSettings = ({ webhook, editable, onSaved }: { webhook: Webhook; editable: boolean; onSaved: () => void }) => {
  const [name, setName] = useState(webhook.name)
  const [url, setUrl] = useState(webhook.url)
  const [events, setEvents] = useState<string[]>([...webhook.events])
  const [enabled, setEnabled] = useState(webhook.enabled)
  const action = useSave()
  const submit = async (event: Event) => {
    event.preventDefault()
    if (await action.run(() => api.put(`/webhooks/${webhook.uuid}`, { name, url, events, enabled }))) onSaved()
  }
  return (
    <Panel title="Settings">
      <form class="grid-form" onSubmit={submit}>
        <fieldset disabled={!editable}>
          <TextField label="URL" name="url" type="url" value={url} onValue={setUrl} error={action.error} required />
          <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
          <WebhookEventsChoice events={events} onEvents={setEvents} error={action.error} />
          <CheckField label="Enabled" name="enabled" checked={enabled} onChecked={setEnabled} hint={webhook.disabled_reason ? "Enabling it again clears its failure state." : undefined} />
        </fieldset>
        <FormError error={action.error} fields={["url", "name", "events"]} />
        {editable && <SaveActions busy={action.busy} saved={action.saved} disabled={!isAll(events) && events.length === 0} />}
      </form>
    </Panel>
  )
}
