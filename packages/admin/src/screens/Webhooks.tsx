import { useState } from "preact/hooks"
import { api, type ApiError, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, fieldErrors, TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

/** The event kinds a webhook can receive (packages/core/src/events/EventType.ts). */
const EVENT_TYPES = [
  "subscriber.created", "subscriber.confirmed", "subscriber.unsubscribed", "subscriber.resubscribed", "subscriber.deleted",
  "tag.added", "tag.removed", "campaign.sending", "campaign.sent", "mail.sent", "mail.failed", "mail.opened",
  "mail.clicked", "mail.bounced", "mail.complained", "import.completed", "transactional_mail.sent"
] as const

/** An outgoing webhook as the API returns it; `secret` only in the answer of the write that set it. */
interface Webhook {
  readonly uuid: string
  readonly name: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly email_list_uuids: ReadonlyArray<string> | null
  readonly secret?: string
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly failing_since: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** One event posted (or to be posted) to a webhook. */
interface WebhookDelivery {
  readonly uuid: string
  readonly event_id: string
  readonly event_type: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly attempts: number
  readonly response_status: number | null
  readonly response_body: string | null
  readonly error: string | null
  readonly duration_ms: number | null
  readonly next_attempt_at: string | null
  readonly last_attempt_at: string | null
  readonly delivered_at: string | null
  readonly payload: unknown
  readonly created_at: string
}

const isAll = (events: ReadonlyArray<string>) => events.length === 0 || events.includes("*")

const eventsText = (events: ReadonlyArray<string>) => (isAll(events) ? "All events" : events.join(", "))

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

const WebhookState = ({ webhook }: { webhook: Webhook }) =>
  !webhook.enabled ? <Badge value="disabled" /> : webhook.failing_since ? <Badge value="failing" /> : <Badge value="enabled" />

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

const EventsChoice = ({ events, onEvents, error }: { events: ReadonlyArray<string>; onEvents: (events: string[]) => void; error: ApiError | undefined }) => {
  const all = isAll(events)
  const messages = fieldErrors(error, "events")
  return (
    <fieldset class="webhook-events">
      <legend>Events</legend>
      <CheckField label="All events, including kinds added later" name="events_all" checked={all} onChecked={(checked) => onEvents(checked ? ["*"] : [])} />
      {!all && (
        <div class="webhook-event-list">
          {EVENT_TYPES.map((type) => (
            <CheckField
              key={type}
              label={type}
              name="events"
              checked={events.includes(type)}
              onChecked={(checked) => onEvents(checked ? [...events, type] : events.filter((event) => event !== type))}
            />
          ))}
        </div>
      )}
      {messages.length > 0 && <p class="field-error error-text">{messages.join(" ")}</p>}
    </fieldset>
  )
}

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
        <EventsChoice events={events} onEvents={setEvents} error={action.error} />
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
      <Deliveries webhook={webhook} />
    </Page>
  )
}

const WebhookSettings = ({ webhook, editable, onSaved }: { webhook: Webhook; editable: boolean; onSaved: () => void }) => {
  const [name, setName] = useState(webhook.name)
  const [url, setUrl] = useState(webhook.url)
  const [events, setEvents] = useState<string[]>([...webhook.events])
  const [enabled, setEnabled] = useState(webhook.enabled)
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    setSaved(false)
    if (await action.run(() => api.put(`/webhooks/${webhook.uuid}`, { name, url, events, enabled }))) {
      setSaved(true)
      onSaved()
    }
  }
  return (
    <Panel title="Settings">
      <form class="grid-form" onSubmit={submit}>
        <fieldset disabled={!editable}>
          <TextField label="URL" name="url" type="url" value={url} onValue={setUrl} error={action.error} required />
          <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
          <EventsChoice events={events} onEvents={setEvents} error={action.error} />
          <CheckField label="Enabled" name="enabled" checked={enabled} onChecked={setEnabled} hint={webhook.disabled_reason ? "Enabling it again clears its failure state." : undefined} />
        </fieldset>
        <FormError error={action.error} fields={["url", "name", "events"]} />
        {editable && (
          <div class="form-actions">
            <button type="submit" class="primary" disabled={action.busy || (!isAll(events) && events.length === 0)}>
              Save
            </button>
            {saved && <span role="status">Saved.</span>}
          </div>
        )}
      </form>
    </Panel>
  )
}

const Deliveries = ({ webhook }: { webhook: string }) => {
  const params = useSearchParams()
  const status = params.get("status") ?? ""
  const eventType = params.get("event") ?? ""
  const deliveries = useApi<Collection<WebhookDelivery>>(
    `/webhooks/${webhook}/deliveries${query({ page: params.get("page"), "filter[status]": status, "filter[event_type]": eventType })}`,
    5000
  )
  const canWrite = useCan("write")
  const action = useAction()
  const [retried, setRetried] = useState<string | undefined>(undefined)
  const retry = (delivery: WebhookDelivery) => {
    setRetried(undefined)
    void action.run(() => api.post(`/webhooks/${webhook}/deliveries/${delivery.uuid}/retry`)).then((ok) => {
      if (!ok) return
      setRetried(delivery.event_id)
      deliveries.reload()
    })
  }
  return (
    <Panel title="Deliveries">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status{" "}
          <select value={status} onChange={(event) => setSearchParams({ status: event.currentTarget.value, page: null })}>
            <option value="">all</option>
            {["pending", "succeeded", "failed"].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event{" "}
          <select value={eventType} onChange={(event) => setSearchParams({ event: event.currentTarget.value, page: null })}>
            <option value="">all</option>
            {EVENT_TYPES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage error={deliveries.error ?? action.error} />
      {retried && <p role="status">{retried} is sent again as soon as a sender is free.</p>}
      <DataTable
        caption="Deliveries of this webhook"
        rows={deliveries.data?.data}
        rowKey={(delivery) => delivery.uuid}
        empty={status || eventType ? "No delivery matches." : "No events were delivered to this webhook yet."}
        columns={[
          {
            title: "Event",
            cell: (d) => (
              <>
                {d.event_type}
                <br />
                <small class="muted">{d.event_id}</small>
              </>
            )
          },
          { title: "Status", cell: (d) => <Badge value={d.status} /> },
          { title: "Attempts", numeric: true, cell: (d) => formatNumber(d.attempts) },
          { title: "Response", numeric: true, cell: (d) => (d.response_status === null ? "–" : d.response_status) },
          { title: "Error or answer", wide: true, cell: (d) => <span class="url">{d.error ?? d.response_body?.slice(0, 120) ?? "–"}</span> },
          { title: "Last attempt", wide: true, cell: (d) => formatDate(d.last_attempt_at) },
          { title: "Next attempt", wide: true, cell: (d) => (d.status === "pending" ? formatDate(d.next_attempt_at) : "–") },
          {
            title: "Actions",
            cell: (d) =>
              canWrite && d.status !== "succeeded" ? (
                <button type="button" disabled={action.busy} onClick={() => retry(d)} aria-label={`Retry ${d.event_type} ${d.event_id}`}>
                  {d.status === "failed" ? "Retry" : "Retry now"}
                </button>
              ) : null
          }
        ]}
      />
      <Pager meta={deliveries.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Panel>
  )
}
