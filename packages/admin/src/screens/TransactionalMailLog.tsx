import { type Collection, query } from "../api/client"
import { useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Badge, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, formatNumber } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"
import type { TransactionalMail } from "./transactionalTypes"

/** The log of sent transactional mails, searchable by subject or address. */
export const TransactionalMailLog = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const mails = useApi<Collection<TransactionalMail>>(`/transactional-mails${query({ page: params.get("page"), "filter[search]": search })}`, 5000)
  return (
    <Panel title="Mail log">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={search} placeholder="subject or address" />
      </form>
      <ErrorMessage error={mails.error} />
      <DataTable
        caption="Sent transactional mails"
        rows={mails.data?.data}
        rowKey={(mail) => mail.uuid}
        empty={search ? "No mail matches." : "No transactional mail was sent yet."}
        columns={[
          { title: "Subject", cell: (m) => <Link href={`/transactional/mails/${m.uuid}`}>{m.subject || "(no subject)"}</Link> },
          { title: "To", cell: (m) => <span class="url">{m.to.map((address) => address.email).join(", ")}</span> },
          { title: "Status", cell: (m) => <Badge value={m.fake ? "fake" : m.status} /> },
          { title: "Template", wide: true, cell: (m) => m.mail_name ?? "–" },
          { title: "Opens", numeric: true, wide: true, cell: (m) => formatNumber(m.opens) },
          { title: "Clicks", numeric: true, wide: true, cell: (m) => formatNumber(m.clicks) },
          { title: "Sent", wide: true, cell: (m) => formatDate(m.created_at) }
        ]}
      />
      <Pager meta={mails.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Panel>
  )
}
