import { useEffect } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList, SubscriberImport } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage } from "../components/ErrorMessage"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

const RUNNING = ["pending", "importing", "queued", "processing"]

/** Imports, newest first, with their state and counts. */
export const Imports = () => {
  const params = useSearchParams()
  const imports = useApi<Collection<SubscriberImport>>(`/subscriber-imports${query({ page: params.get("page") })}`, 3000)
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100")
  const canWrite = useCan("write")
  const listName = (id: number) => lists.data?.data.find((list) => list.id === id)?.name ?? `#${id}`
  return (
    <Page title="Imports" actions={canWrite && <Link class="button primary" href="/imports/new">Import a CSV file</Link>}>
      <ErrorMessage error={imports.error} />
      <DataTable
        caption="Subscriber imports"
        rows={imports.data?.data}
        rowKey={(item) => String(item.id)}
        empty="No imports yet."
        columns={[
          { title: "Import", cell: (item) => <Link href={`/imports/${item.id}`}>#{item.id}</Link> },
          { title: "List", cell: (item) => listName(item.email_list_id) },
          { title: "Status", cell: (item) => <Badge value={item.status} /> },
          { title: "Imported", numeric: true, cell: (item) => formatNumber(item.imported_subscribers_count) },
          { title: "Refused rows", numeric: true, cell: (item) => formatNumber(item.error_count) },
          { title: "Created", wide: true, cell: (item) => formatDate(item.created_at) }
        ]}
      />
      <Pager meta={imports.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Page>
  )
}

interface RefusedRow {
  readonly line: number
  readonly email: string | null
  readonly reason: string
}

/** One import: its progress while it runs, its counts, and the rows it refused with the reason. */
export const ImportDetail = ({ id }: { id: string }) => {
  const params = useSearchParams()
  const loaded = useApi<{ data: SubscriberImport }>(`/subscriber-imports/${id}`, 1000)
  const data = loaded.data?.data
  const finished = data !== undefined && (data.status === "completed" || data.status === "failed")
  const errors = useApi<Collection<RefusedRow>>(`/subscriber-imports/${id}/errors${query({ page: params.get("page") })}`, finished ? undefined : 2000)
  useEffect(() => {
    if (finished) errors.reload()
  }, [finished])
  const canWrite = useCan("write")
  const action = useAction()
  const running = data !== undefined && RUNNING.includes(data.status)
  return (
    <Page
      title={`Import #${id}`}
      back={<Link href="/imports">← Imports</Link>}
      actions={
        canWrite && data && !running && (
          <>
            {data.status === "draft" && <button type="button" onClick={() => action.run(() => api.post(`/subscriber-imports/${id}/start`)).then(() => loaded.reload())}>Start</button>}
            <ConfirmButton danger question="Delete this import? Subscribers it imported stay." onConfirm={() => action.run(() => api.delete(`/subscriber-imports/${id}`)).then((ok) => ok && navigate("/imports"))}>
              Delete
            </ConfirmButton>
          </>
        )
      }
    >
      <ErrorMessage error={loaded.error ?? action.error} />
      {data && (
        <>
          <dl class="stats">
            <div><dt>Status</dt><dd><Badge value={data.status} /></dd></div>
            <div><dt>Imported</dt><dd>{formatNumber(data.imported_subscribers_count ?? 0)}</dd></div>
            <div><dt>Refused rows</dt><dd>{formatNumber(data.error_count)}</dd></div>
            <div><dt>Finished</dt><dd>{formatDate(data.finished_at as string | null)}</dd></div>
          </dl>
          {running && (
            <label class="progress-label">
              Importing…
              <progress />
            </label>
          )}
          {typeof data.failure_reason === "string" && <p class="error" role="alert">{data.failure_reason}</p>}
        </>
      )}
      <Panel title="Refused rows">
        <ErrorMessage error={errors.error} />
        <DataTable
          caption="Rows the import refused"
          rows={errors.data?.data}
          rowKey={(row) => String(row.line)}
          empty="No row was refused."
          columns={[
            { title: "Line", numeric: true, cell: (row) => row.line },
            { title: "Email", cell: (row) => row.email ?? "–" },
            { title: "Reason", cell: (row) => row.reason }
          ]}
        />
        <Pager meta={errors.data?.meta} onPage={(page) => setSearchParams({ page })} />
      </Panel>
    </Page>
  )
}
