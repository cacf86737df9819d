import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { FilterSelect } from "../components/FilterSelect"
import { Badge, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber } from "../format"
import { setSearchParams, useSearchParams } from "../router"
import { EVENT_TYPES, type WebhookDelivery } from "./webhookTypes"

/** A webhook's deliveries, filtered by status and event, with a retry for those that did not get through. */
export const WebhookDeliveries = ({ webhook }: { webhook: string }) => {
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
        <FilterSelect label="Status" param="status" value={status} values={["pending", "succeeded", "failed"]} />
        <FilterSelect label="Event" param="event" value={eventType} values={EVENT_TYPES} />
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
