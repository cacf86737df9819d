import type { Campaign } from "../api/types"
import { useApi } from "../api/useApi"
import { Chart } from "../components/Chart"
import { ErrorMessage } from "../components/ErrorMessage"
import { LinksTable } from "../components/LinksTable"
import { MailFigures } from "../components/MailFigures"
import { OpensTable } from "../components/OpensTable"
import { Panel } from "../components/Page"

interface Timeline {
  readonly bucket: "hour" | "day"
  readonly points: ReadonlyArray<{ readonly at: string; readonly opens: number; readonly clicks: number }>
}

/** What happened after a campaign went out: its figures, opens and clicks over time, its links and who opened it. */
export const CampaignStatistics = ({ campaign }: { campaign: Campaign }) => {
  const live = campaign.status === "sending" ? 5000 : 10_000
  const timeline = useApi<{ data: Timeline }>(`/campaigns/${campaign.uuid}/timeline`, live)
  const points = timeline.data?.data.points ?? []
  return (
    <>
      <MailFigures mail={campaign} sentLabel="Recipients" />
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
      <LinksTable path={`/campaigns/${campaign.uuid}/clicks`} pageParam="links" every={live} empty="No clicks yet." />
      <OpensTable path={`/campaigns/${campaign.uuid}/opens`} pageParam="opens" every={live} />
    </>
  )
}
