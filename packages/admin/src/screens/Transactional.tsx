import { type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import { useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatNumber } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"
import type { TransactionalTemplate } from "./transactionalTypes"
import { TransactionalMailLog } from "./TransactionalMailLog"

/** Transactional mails: the stored templates, and the log of mails sent with or without one. */
export const Transactional = () => {
  const params = useSearchParams()
  const canWrite = useCan("write")
  const templates = useApi<Collection<TransactionalTemplate>>(`/transactional-mails/templates${query({ page: params.get("templates"), sort: "name" })}`)
  return (
    <Page title="Transactional mails" actions={canWrite && <Link class="button primary" href="/transactional/templates/new">New template</Link>}>
      <Panel title="Templates">
        <ErrorMessage error={templates.error} />
        <DataTable
          caption="Transactional templates"
          rows={templates.data?.data}
          rowKey={(template) => template.uuid}
          empty="No templates yet: applications can also send inline content."
          columns={[
            { title: "Name", cell: (t) => <Link href={`/transactional/templates/${t.uuid}`}>{t.name}</Link> },
            { title: "Subject", wide: true, cell: (t) => t.subject || "–" },
            { title: "Type", wide: true, cell: (t) => t.type },
            { title: "Sent", numeric: true, cell: (t) => formatNumber(t.sent_count) },
            { title: "Opened", numeric: true, wide: true, cell: (t) => formatNumber(t.unique_open_count) },
            { title: "Clicked", numeric: true, wide: true, cell: (t) => formatNumber(t.unique_click_count) },
            { title: "Bounced", numeric: true, wide: true, cell: (t) => formatNumber(t.bounce_count) }
          ]}
        />
        <Pager meta={templates.data?.meta} onPage={(page) => setSearchParams({ templates: page })} />
      </Panel>
      <TransactionalMailLog />
    </Page>
  )
}
