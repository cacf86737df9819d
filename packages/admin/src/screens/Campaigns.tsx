import { type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { Campaign } from "../api/types"
import { useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { FilterSelect } from "../components/FilterSelect"
import { Badge, Page } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, formatNumber, formatRate } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"

/** Campaigns, newest sent first: state, recipients and rates; filter by state and name. */
export const Campaigns = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const status = params.get("status") ?? ""
  const campaigns = useApi<Collection<Campaign>>(`/campaigns${query({ page: params.get("page"), "filter[search]": search, "filter[status]": status })}`, 5000)
  const canWrite = useCan("write")
  return (
    <Page title="Campaigns" actions={canWrite && <Link class="button primary" href="/campaigns/new">New campaign</Link>}>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={search} />
        <FilterSelect label="Status" param="status" value={status} values={["draft", "scheduled", "sending", "paused", "sent", "cancelled"]} />
      </form>
      <ErrorMessage error={campaigns.error} />
      <CampaignTable campaigns={campaigns.data?.data} empty={search || status ? "No campaign matches." : "No campaigns yet."} />
      <Pager meta={campaigns.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Page>
  )
}

/** Campaigns as a table with their rates (also on the dashboard). */
export const CampaignTable = ({ campaigns, empty }: { campaigns: ReadonlyArray<Campaign> | undefined; empty: string }) => (
  <DataTable
    caption="Campaigns"
    rows={campaigns}
    rowKey={(campaign) => campaign.uuid}
    empty={empty}
    columns={[
      { title: "Name", cell: (c) => <Link href={`/campaigns/${c.uuid}`}>{c.name}</Link> },
      { title: "Status", cell: (c) => <Badge value={c.status} /> },
      { title: "Recipients", numeric: true, wide: true, cell: (c) => formatNumber(c.sent_to_number_of_subscribers) },
      { title: "Opened", numeric: true, cell: (c) => formatRate(c.open_rate) },
      { title: "Clicked", numeric: true, cell: (c) => formatRate(c.click_rate) },
      { title: "Sent", wide: true, cell: (c) => formatDate(c.sent_at ?? c.scheduled_at) }
    ]}
  />
)
