import { type Collection, query } from "../api/client"
import type { Campaign } from "../api/types"
import { useApi } from "../api/useApi"
import { Chart } from "../components/Chart"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber, formatRate } from "../format"
import { setSearchParams, useSearchParams } from "../router"

interface Timeline {
  readonly bucket: "hour" | "day"
  readonly points: ReadonlyArray<{ readonly at: string; readonly opens: number; readonly clicks: number }>
}

interface Link {
  readonly url: string
  readonly unique_click_count: number
  readonly click_count: number
}

interface Open {
  readonly subscriber_uuid?: string
  readonly subscriber_email: string
  readonly open_count: number
  readonly first_opened_at: string
}

/** What happened after a campaign went out: its figures, opens and clicks over time, its links and who opened it. */
export const CampaignStatistics = ({ campaign }: { campaign: Campaign }) => {
  const live = campaign.status === "sending" ? 5000 : 10_000
  const timeline = useApi<{ data: Timeline }>(`/campaigns/${campaign.uuid}/timeline`, live)
  const params = useSearchParams()
  const links = useApi<Collection<Link>>(`/campaigns/${campaign.uuid}/clicks${query({ page: params.get("links"), per_page: 10 })}`, live)
  const opens = useApi<Collection<Open>>(`/campaigns/${campaign.uuid}/opens${query({ page: params.get("opens"), per_page: 10 })}`, live)
  const points = timeline.data?.data.points ?? []
  return (
    <>
      <dl class="stats" aria-label="Figures">
        <Figure label="Recipients" value={formatNumber(campaign.sent_to_number_of_subscribers)} />
        <Figure label="Opens" value={`${formatNumber(campaign.unique_open_count)} (${formatRate(campaign.open_rate)})`} />
        <Figure label="Clicks" value={`${formatNumber(campaign.unique_click_count)} (${formatRate(campaign.click_rate)})`} />
        <Figure label="Unsubscribes" value={`${formatNumber(campaign.unsubscribe_count)} (${formatRate(campaign.unsubscribe_rate)})`} />
        <Figure label="Bounces" value={`${formatNumber(campaign.bounce_count)} (${formatRate(campaign.bounce_rate)})`} />
      </dl>
      <Panel title={`Opens and clicks per ${timeline.data?.data.bucket ?? "hour"}`}>
        <ErrorMessage error={timeline.error} />
        {points.length > 0 ? (
          <Chart
            title="Opens and clicks over time"
            step={timeline.data?.data.bucket === "day" ? 86_400 : 3_600}
            times={points.map((point) => Date.parse(point.at) / 1000)}
            series={[
              { label: "Opens", color: "#2563eb", values: points.map((point) => point.opens) },
              { label: "Clicks", color: "#16a34a", values: points.map((point) => point.clicks) }
            ]}
          />
        ) : (
          <p class="empty chart-placeholder">No opens or clicks yet.</p>
        )}
      </Panel>
      <Panel title="Links">
        <ErrorMessage error={links.error} />
        <DataTable
          caption="Links and their clicks"
          rows={links.data?.data}
          rowKey={(link) => link.url}
          empty="No clicks yet."
          columns={[
            { title: "Link", cell: (link) => <span class="url">{link.url}</span> },
            { title: "Unique clicks", numeric: true, cell: (link) => formatNumber(link.unique_click_count) },
            { title: "Clicks", numeric: true, cell: (link) => formatNumber(link.click_count) }
          ]}
        />
        <Pager meta={links.data?.meta} onPage={(page) => setSearchParams({ links: page })} />
      </Panel>
      <Panel title="Opened by">
        <ErrorMessage error={opens.error} />
        <DataTable
          caption="Subscribers who opened"
          rows={opens.data?.data}
          rowKey={(open) => open.subscriber_email}
          empty="Nobody opened it yet."
          columns={[
            { title: "Subscriber", cell: (open) => open.subscriber_email },
            { title: "Opens", numeric: true, cell: (open) => formatNumber(open.open_count) },
            { title: "First opened", wide: true, cell: (open) => formatDate(open.first_opened_at) }
          ]}
        />
        <Pager meta={opens.data?.meta} onPage={(page) => setSearchParams({ opens: page })} />
      </Panel>
    </>
  )
}

const Figure = ({ label, value }: { label: string; value: string }) => (
  <div>
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)
