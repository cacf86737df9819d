import { type Collection, query } from "../api/client"
import type { Subscriber } from "../api/types"
import { useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { FilterSelect } from "../components/FilterSelect"
import { Badge, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"
import { actionText, type Names } from "./automationText"
import { type Automation, type AutomationAction, type AutomationSubscriber, BRANCHES } from "./automationTypes"

/** The step of a uuid, searched through every branch. */
const findAction = (actions: ReadonlyArray<AutomationAction>, uuid: string): AutomationAction | undefined => {
  for (const action of actions) {
    if (action.uuid === uuid) return action
    for (const branch of BRANCHES) {
      const found = Array.isArray(action[branch]) ? findAction(action[branch] as ReadonlyArray<AutomationAction>, uuid) : undefined
      if (found) return found
    }
  }
  return undefined
}

/** A subscriber's address, linked to the subscriber. */
const SubscriberEmail = ({ uuid }: { uuid: string }) => {
  const subscriber = useApi<{ data: Subscriber }>(`/subscribers/${uuid}`)
  return <Link href={`/subscribers/${uuid}`}>{subscriber.data?.data.email ?? (subscriber.error ? "deleted subscriber" : "…")}</Link>
}

/** Where each subscriber is in an automation, filtered by state. */
export const AutomationSubscribers = ({ automation, names }: { automation: Automation; names: Names }) => {
  const params = useSearchParams()
  const state = params.get("state") ?? ""
  const positions = useApi<Collection<AutomationSubscriber>>(`/automations/${automation.uuid}/subscribers${query({ page: params.get("page"), "filter[state]": state })}`, 10_000)
  const step = (uuid: string | null) => {
    const found = uuid === null ? undefined : findAction(automation.actions, uuid)
    return found ? actionText(found, names) : "–"
  }
  return (
    <Panel title="Subscribers">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <FilterSelect label="State" param="state" value={state} values={["active", "completed", "halted"]} />
      </form>
      <ErrorMessage error={positions.error} />
      <DataTable
        caption="Where each subscriber is in this automation"
        rows={positions.data?.data}
        rowKey={(row) => `${row.subscriber_uuid ?? "deleted"}-${row.entered_at}`}
        empty={state ? "Nobody is in this state." : "Nobody has entered this automation yet."}
        columns={[
          { title: "Subscriber", cell: (row) => (row.subscriber_uuid ? <SubscriberEmail uuid={row.subscriber_uuid} /> : "deleted subscriber") },
          { title: "State", cell: (row) => <Badge value={row.state} /> },
          { title: "Step", cell: (row) => step(row.action_uuid) },
          { title: "Entered", wide: true, cell: (row) => formatDate(row.entered_at) },
          { title: "Next step", wide: true, cell: (row) => formatDate(row.next_run_at) }
        ]}
      />
      <Pager meta={positions.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Panel>
  )
}
