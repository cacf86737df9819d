import { type Collection, query } from "../api/client"
import { useApi } from "../api/useApi"
import { formatDate, formatNumber } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"
import type { Column } from "./DataTable"
import { DataTable } from "./DataTable"
import { ErrorMessage } from "./ErrorMessage"
import { Panel } from "./Page"
import { Pager } from "./Pager"

/** A subscriber who opened a mail. */
interface MailOpen {
  readonly subscriber_uuid?: string | null
  readonly subscriber_email: string
  readonly open_count: number
  readonly first_opened_at: string
  readonly last_opened_at?: string
}

/**
 * Who opened a mail: `GET /api{path}` ten a page, paged by the search parameter `pageParam`, refreshed every `every`
 * ms; `detailed` links each subscriber and adds the last open.
 */
export const OpensTable = ({ path, pageParam, every, detailed = false }: { path: string; pageParam: string; every: number; detailed?: boolean }) => {
  const params = useSearchParams()
  const opens = useApi<Collection<MailOpen>>(`${path}${query({ page: params.get(pageParam), per_page: 10 })}`, every)
  const columns: ReadonlyArray<Column<MailOpen>> = [
    {
      title: "Subscriber",
      cell: (open) => (detailed && open.subscriber_uuid ? <Link href={`/subscribers/${open.subscriber_uuid}`}>{open.subscriber_email}</Link> : open.subscriber_email)
    },
    { title: "Opens", numeric: true, cell: (open) => formatNumber(open.open_count) },
    { title: "First opened", wide: true, cell: (open) => formatDate(open.first_opened_at) },
    ...(detailed ? [{ title: "Last opened", wide: true, cell: (open: MailOpen) => formatDate(open.last_opened_at) }] : [])
  ]
  return (
    <Panel title="Opened by">
      <ErrorMessage error={opens.error} />
      <DataTable caption="Subscribers who opened" rows={opens.data?.data} rowKey={(open) => open.subscriber_email} empty="Nobody opened it yet." columns={columns} />
      <Pager meta={opens.data?.meta} onPage={(page) => setSearchParams({ [pageParam]: page })} />
    </Panel>
  )
}
