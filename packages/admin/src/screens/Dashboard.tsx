import type { Collection } from "../api/client"
import type { Campaign, EmailList } from "../api/types"
import { useApi } from "../api/useApi"
import { Chart } from "../components/Chart"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Page, Panel } from "../components/Page"
import { formatNumber } from "../format"
import { Link } from "../router"
import { CampaignTable } from "./Campaigns"

interface Day {
  readonly date: string
  readonly sent: number
  readonly opens: number
  readonly clicks: number
}

/** The first screen: mails sent over the last 30 days, the latest campaigns with their rates, and the lists' sizes. */
export const Dashboard = () => {
  const daily = useApi<{ data: ReadonlyArray<Day> }>("/statistics/daily?days=30", 60_000)
  const campaigns = useApi<Collection<Campaign>>("/campaigns?per_page=5&sort=-sent", 10_000)
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=10&sort=-active_subscribers_count")
  const days = daily.data?.data ?? []
  const total = days.reduce((sum, day) => sum + day.sent, 0)
  return (
    <Page title="Dashboard">
      <Panel title={`Mails sent in the last 30 days: ${formatNumber(total)}`}>
        <ErrorMessage error={daily.error} />
        {daily.data ? (
          <Chart
            title="Mails sent, opens and clicks per day"
            bars={false}
            times={days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000)}
            series={[
              { label: "Sent", color: "#7c3aed", values: days.map((day) => day.sent) },
              { label: "Opens", color: "#2563eb", values: days.map((day) => day.opens) },
              { label: "Clicks", color: "#16a34a", values: days.map((day) => day.clicks) }
            ]}
          />
        ) : (
          <div class="chart-placeholder" aria-busy="true" />
        )}
      </Panel>
      <div class="columns">
        <Panel title="Recent campaigns" actions={<Link href="/campaigns">All campaigns</Link>}>
          <ErrorMessage error={campaigns.error} />
          <CampaignTable campaigns={campaigns.data?.data} empty="No campaigns yet." />
        </Panel>
        <Panel title="Email lists" actions={<Link href="/lists">All lists</Link>}>
          <ErrorMessage error={lists.error} />
          <DataTable
            caption="Email lists by size"
            rows={lists.data?.data}
            rowKey={(list) => list.uuid}
            empty={<>No lists yet. <Link href="/lists">Create one</Link>.</>}
            columns={[
              { title: "List", cell: (list) => <Link href={`/lists/${list.uuid}`}>{list.name}</Link> },
              { title: "Active subscribers", numeric: true, cell: (list) => formatNumber(list.active_subscribers_count) }
            ]}
          />
        </Panel>
      </div>
    </Page>
  )
}
