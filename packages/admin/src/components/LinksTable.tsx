import { type Collection, query } from "../api/client"
import { useApi } from "../api/useApi"
import { formatNumber } from "../format"
import { setSearchParams, useSearchParams } from "../router"
import { DataTable } from "./DataTable"
import { ErrorMessage } from "./ErrorMessage"
import { Panel } from "./Page"
import { Pager } from "./Pager"

/** A tracked link of a mail with its clicks. */
interface MailLink {
  readonly url: string
  readonly unique_click_count: number
  readonly click_count: number
}

/** The links of a mail and their clicks: `GET /api{path}` ten a page, paged by the search parameter `pageParam`, refreshed every `every` ms. */
export const LinksTable = ({ path, pageParam, every, empty }: { path: string; pageParam: string; every: number; empty: string }) => {
  const params = useSearchParams()
  const links = useApi<Collection<MailLink>>(`${path}${query({ page: params.get(pageParam), per_page: 10 })}`, every)
  return (
    <Panel title="Links">
      <ErrorMessage error={links.error} />
      <DataTable
        caption="Links and their clicks"
        rows={links.data?.data}
        rowKey={(link) => link.url}
        empty={empty}
        columns={[
          { title: "Link", cell: (link) => <span class="url">{link.url}</span> },
          { title: "Unique clicks", numeric: true, cell: (link) => formatNumber(link.unique_click_count) },
          { title: "Clicks", numeric: true, cell: (link) => formatNumber(link.click_count) }
        ]}
      />
      <Pager meta={links.data?.meta} onPage={(page) => setSearchParams({ [pageParam]: page })} />
    </Panel>
  )
}
