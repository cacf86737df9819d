import { useState } from "preact/hooks"
import { api, ApiError, type Collection } from "../api/client"
import { csvParts } from "../api/csvParts"
import type { EmailList, SubscriberImport } from "../api/types"
import { useApi } from "../api/useApi"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, Field, SelectField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { formatNumber } from "../format"
import { Link, navigate } from "../router"

/** Uploads a CSV file in parts into a draft import, then starts it and shows its progress. */
export const ImportNew = () => {
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100&sort=name")
  const [list, setList] = useState("")
  const [file, setFile] = useState<File | null>(null)
  const [resubscribe, setResubscribe] = useState(false)
  const [unsubscribeOthers, setUnsubscribeOthers] = useState(false)
  const [progress, setProgress] = useState<{ sent: number; total: number } | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const listId = lists.data?.data.find((l) => l.uuid === (list || lists.data?.data[0]?.uuid))?.id

  const upload = async (event: Event) => {
    event.preventDefault()
    if (file === null || listId === undefined) return
    setError(undefined)
    setProgress({ sent: 0, total: file.size })
    let created: SubscriberImport | undefined
    try {
      for await (const part of csvParts(file)) {
        if (created === undefined) {
          created = (await api.post<{ data: SubscriberImport }>("/subscriber-imports", {
            subscribers_csv: part.text,
            email_list_id: listId,
            subscribe_unsubscribed: resubscribe,
            unsubscribe_others: unsubscribeOthers
          })).data
        } else {
          await api.post(`/subscriber-imports/${created.id}/append`, { subscribers_csv: part.text })
        }
        setProgress({ sent: part.bytesRead, total: file.size })
      }
      if (created === undefined) throw new ApiError(422, "The file is empty.", { subscribers_csv: ["The file is empty."] })
      await api.post(`/subscriber-imports/${created.id}/start`)
      navigate(`/imports/${created.id}`)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)))
      if (created !== undefined) await api.delete(`/subscriber-imports/${created.id}`).catch(() => undefined)
      setProgress(undefined)
    }
  }

  return (
    <Page title="Import subscribers" back={<Link href="/imports">← Imports</Link>}>
      <Panel title="CSV file">
        <p>
          The first line names the columns: <code>email</code> (required), <code>first_name</code>, <code>last_name</code>, <code>tags</code>{" "}
          (separated by <code>;</code>) and any other column becomes an extra attribute. Files of any size are sent in parts.
        </p>
        <ErrorMessage error={lists.error} />
        <form class="grid-form" onSubmit={upload}>
          <SelectField label="Into the list" name="email_list_id" value={list || lists.data?.data[0]?.uuid || ""} onValue={setList} error={error} options={(lists.data?.data ?? []).map((l) => [l.uuid, l.name] as const)} />
          <Field label="CSV file" name="subscribers_csv" error={error}>
            {(props) => <input {...props} type="file" accept=".csv,text/csv,text/plain" required onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />}
          </Field>
          <CheckField label="Subscribe again people who unsubscribed" name="subscribe_unsubscribed" checked={resubscribe} onChecked={setResubscribe} />
          <CheckField label="Unsubscribe everyone in the list who is not in the file" name="unsubscribe_others" checked={unsubscribeOthers} onChecked={setUnsubscribeOthers} />
          <FormError error={error} fields={["email_list_id", "subscribers_csv"]} />
          {progress && (
            <label class="progress-label">
              Uploading: {formatNumber(Math.round(progress.sent / 1024))} of {formatNumber(Math.round(progress.total / 1024))} KB
              <progress max={progress.total} value={progress.sent} />
            </label>
          )}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={progress !== undefined || file === null || listId === undefined}>
              Upload and import
            </button>
          </div>
        </form>
      </Panel>
    </Page>
  )
}
