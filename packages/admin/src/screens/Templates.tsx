import { type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { Template } from "../api/types"
import { useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Page } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate } from "../format"
import { Link, setSearchParams, useSearchParams } from "../router"

/** Campaign templates: their fields and when they changed. */
export const Templates = () => {
  const params = useSearchParams()
  const templates = useApi<Collection<Template>>(`/templates${query({ page: params.get("page"), "filter[search]": params.get("search") })}`)
  const canWrite = useCan("write")
  return (
    <Page title="Templates" actions={canWrite && <Link class="button primary" href="/templates/new">New template</Link>}>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={params.get("search") ?? ""} />
      </form>
      <ErrorMessage error={templates.error} />
      <DataTable
        caption="Templates"
        rows={templates.data?.data}
        rowKey={(template) => template.uuid}
        empty="No templates yet. A template is the HTML around a campaign's content, with [[[fields]]] the campaign fills."
        columns={[
          { title: "Name", cell: (t) => <Link href={`/templates/${t.uuid}`}>{t.name}</Link> },
          { title: "Fields", cell: (t) => t.fields.map((field) => field.name).join(", ") || "–" },
          { title: "Updated", wide: true, cell: (t) => formatDate(t.updated_at) }
        ]}
      />
      <Pager meta={templates.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Page>
  )
}
