import { useEffect, useState } from "preact/hooks"
import { api, ApiError, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, SelectField, TextArea, TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

/** A stored transactional template with the statistics of the mails sent from it. */
interface TransactionalTemplate {
  readonly uuid: string
  readonly name: string
  readonly subject: string
  readonly html: string
  readonly text: string | null
  readonly type: "html" | "markdown"
  readonly to: ReadonlyArray<string> | null
  readonly cc: ReadonlyArray<string> | null
  readonly bcc: ReadonlyArray<string> | null
  readonly store_mail: boolean
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly sent_count: number
  readonly open_count: number
  readonly unique_open_count: number
  readonly click_count: number
  readonly unique_click_count: number
  readonly bounce_count: number
  readonly created_at: string
  readonly updated_at: string
}

/** An address of a logged mail. */
interface NamedAddress {
  readonly email: string
  readonly name: string | null
}

/** A transactional mail of the log. */
interface TransactionalMail {
  readonly uuid: string
  readonly mail_name: string | null
  readonly subject: string
  readonly from: ReadonlyArray<NamedAddress>
  readonly to: ReadonlyArray<NamedAddress>
  readonly cc: ReadonlyArray<NamedAddress>
  readonly bcc: ReadonlyArray<NamedAddress>
  readonly reply_to: ReadonlyArray<NamedAddress>
  readonly html: string
  readonly text: string | null
  readonly fake: boolean
  readonly attachments: ReadonlyArray<string>
  readonly send_uuid: string | null
  readonly status: "pending" | "sent" | "failed"
  readonly failure_reason: string | null
  readonly transport_message_id: string | null
  readonly opens: number
  readonly clicks: number
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly created_at: string
}

/** What `POST /transactional-mails/render` answers. */
interface RenderedMail {
  readonly subject: string
  readonly html: string
  readonly text: string
}

const addresses = (list: ReadonlyArray<NamedAddress>): string =>
  list.length === 0 ? "–" : list.map((address) => (address.name ? `${address.name} <${address.email}>` : address.email)).join(", ")

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
      <MailLog />
    </Page>
  )
}

const MailLog = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const mails = useApi<Collection<TransactionalMail>>(`/transactional-mails${query({ page: params.get("page"), "filter[search]": search })}`, 5000)
  return (
    <Panel title="Mail log">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search <input type="search" value={search} placeholder="subject or address" onInput={(event) => setSearchParams({ search: event.currentTarget.value, page: null })} />
        </label>
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

const TEMPLATE_FIELDS = ["name", "subject", "type", "html", "text", "to", "cc", "bcc", "store_mail", "track_opens", "track_clicks"]

const STARTER = `<p>Hello {{ name }},</p>\n<p>Your code is <strong>{{ code }}</strong>.</p>`

const listText = (list: ReadonlyArray<string> | null | undefined): string => (list ?? []).join(", ")

const listValue = (text: string): string[] | null => {
  const items = text.split(",").map((item) => item.trim()).filter(Boolean)
  return items.length === 0 ? null : items
}

/** Create or edit a transactional template, with a preview rendered by the server from sample replacements. */
export const TransactionalTemplateEditor = ({ template }: { template?: string }) => {
  const loaded = useApi<{ data: TransactionalTemplate }>(template ? `/transactional-mails/templates/${template}` : null)
  if (template && loaded.data === undefined) {
    return (
      <Page title="Transactional template" back={<Link href="/transactional">← Transactional mails</Link>}>
        <ErrorMessage error={loaded.error} />
        {!loaded.error && <p aria-busy="true">Loading…</p>}
      </Page>
    )
  }
  return <TemplateForm key={template ?? "new"} template={loaded.data?.data} />
}

const TemplateForm = ({ template }: { template: TransactionalTemplate | undefined }) => {
  const canWrite = useCan("write")
  const [name, setName] = useState(template?.name ?? "")
  const [subject, setSubject] = useState(template?.subject ?? "")
  const [type, setType] = useState<string>(template?.type ?? "html")
  const [html, setHtml] = useState(template?.html ?? STARTER)
  const [text, setText] = useState(template?.text ?? "")
  const [to, setTo] = useState(listText(template?.to))
  const [cc, setCc] = useState(listText(template?.cc))
  const [bcc, setBcc] = useState(listText(template?.bcc))
  const [storeMail, setStoreMail] = useState(template?.store_mail ?? true)
  const [trackOpens, setTrackOpens] = useState(template?.track_opens ?? false)
  const [trackClicks, setTrackClicks] = useState(template?.track_clicks ?? false)
  const [replacements, setReplacements] = useState(`{\n  "name": "Ada",\n  "code": "123456"\n}`)
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const deletion = useAction()

  const body = {
    name,
    subject,
    type,
    html,
    text: text === "" ? null : text,
    to: listValue(to),
    cc: listValue(cc),
    bcc: listValue(bcc),
    store_mail: storeMail,
    track_opens: trackOpens,
    track_clicks: trackClicks
  }
  useEffect(() => setSaved(false), [JSON.stringify(body)])

  const save = async (event: Event) => {
    event.preventDefault()
    let answer: { data: TransactionalTemplate } | undefined
    const ok = await action.run(async () => {
      answer = template
        ? await api.put<{ data: TransactionalTemplate }>(`/transactional-mails/templates/${template.uuid}`, body)
        : await api.post<{ data: TransactionalTemplate }>("/transactional-mails/templates", body)
    })
    if (!ok || !answer) return
    if (template) setSaved(true)
    else navigate(`/transactional/templates/${answer.data.uuid}`, true)
  }

  return (
    <Page
      title={template ? template.name : "New transactional template"}
      back={<Link href="/transactional">← Transactional mails</Link>}
      actions={
        canWrite &&
        template && (
          <ConfirmButton danger question={`Delete the template ${template.name}? Applications sending with mail_name "${template.name}" will get a 422.`} onConfirm={() => deletion.run(() => api.delete(`/transactional-mails/templates/${template.uuid}`)).then((ok) => ok && navigate("/transactional"))}>
            Delete
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={deletion.error} />
      {template && (
        <dl class="stats" aria-label="Figures">
          <Figure label="Sent" value={formatNumber(template.sent_count)} />
          <Figure label="Opened" value={`${formatNumber(template.unique_open_count)} (${formatNumber(template.open_count)} opens)`} />
          <Figure label="Clicked" value={`${formatNumber(template.unique_click_count)} (${formatNumber(template.click_count)} clicks)`} />
          <Figure label="Bounced" value={formatNumber(template.bounce_count)} />
        </dl>
      )}
      <div class="compose">
        <form class="compose-form" onSubmit={save}>
          <fieldset disabled={!canWrite}>
            <Panel title="Message">
              <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required hint='Applications send it with "mail_name": this name or the uuid.' />
              <TextField label="Subject" name="subject" value={subject} onValue={setSubject} error={action.error} hint="A send's own subject replaces it." />
              <SelectField label="Body written in" name="type" value={type} onValue={setType} error={action.error} options={[["html", "HTML"], ["markdown", "Markdown"]]} />
              <TextArea label={type === "markdown" ? "Body (Markdown)" : "Body (HTML)"} name="html" value={html} onValue={setHtml} error={action.error} rows={14} mono hint="Liquid works with the send's replacements: {{ name }}; ::name:: too." />
              <TextArea label="Text version" name="text" value={text} onValue={setText} error={action.error} rows={5} mono hint="Empty: derived from the body." />
            </Panel>
            <Panel title="Default recipients">
              <p class="muted">Added to every send of this template, besides the send's own addresses.</p>
              <TextField label="To" name="to" value={to} onValue={setTo} error={action.error} hint="Comma-separated: a@example.com, Name <b@example.com>." />
              <TextField label="Cc" name="cc" value={cc} onValue={setCc} error={action.error} />
              <TextField label="Bcc" name="bcc" value={bcc} onValue={setBcc} error={action.error} />
            </Panel>
            <Panel title="Log and tracking">
              <CheckField label="Keep sent mails in the log" name="store_mail" checked={storeMail} onChecked={setStoreMail} hint="Opens and clicks are only counted for logged mails." />
              <CheckField label="Track opens" name="track_opens" checked={trackOpens} onChecked={setTrackOpens} />
              <CheckField label="Track clicks" name="track_clicks" checked={trackClicks} onChecked={setTrackClicks} />
            </Panel>
          </fieldset>
          <FormError error={action.error} fields={TEMPLATE_FIELDS} />
          {canWrite && (
            <div class="form-actions">
              <button type="submit" class="primary" disabled={action.busy}>
                {template ? "Save" : "Create template"}
              </button>
              {saved && <span role="status">Saved.</span>}
            </div>
          )}
        </form>
        <aside class="compose-preview" aria-label="Preview">
          {canWrite ? (
            <>
              <TextArea label="Sample replacements (JSON)" name="replacements" value={replacements} onValue={setReplacements} rows={5} mono hint="What an application would send as replacements." />
              <TransactionalPreview template={template} type={type} subject={subject} html={html} text={text} replacements={replacements} />
            </>
          ) : (
            <p class="muted">The preview is rendered by the server and needs a token with the write ability.</p>
          )}
        </aside>
      </div>
    </Page>
  )
}

const PREVIEW_ADDRESS = "preview@example.com"

const TransactionalPreview = ({ template, type, subject, html, text, replacements }: {
  template: TransactionalTemplate | undefined
  type: string
  subject: string
  html: string
  text: string
  replacements: string
}) => {
  const [preview, setPreview] = useState<RenderedMail | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  let values: unknown = undefined
  let jsonProblem: string | undefined = undefined
  try {
    values = replacements.trim() === "" ? {} : JSON.parse(replacements)
    if (typeof values !== "object" || values === null || Array.isArray(values)) jsonProblem = "The replacements must be a JSON object."
  } catch {
    jsonProblem = "The replacements are not valid JSON."
  }
  const markdown = type === "markdown"
  const body =
    jsonProblem !== undefined || (markdown && template === undefined)
      ? null
      : markdown
      ? { from: PREVIEW_ADDRESS, to: PREVIEW_ADDRESS, mail_name: template!.uuid, subject, replacements: values }
      : { from: PREVIEW_ADDRESS, to: PREVIEW_ADDRESS, subject: subject.trim() === "" ? "(no subject)" : subject, html, text: text === "" ? null : text, replacements: values }
  const key = JSON.stringify(body)
  useEffect(() => {
    if (body === null) return
    let cancelled = false
    const timer = setTimeout(() => {
      api.post<{ data: RenderedMail }>("/transactional-mails/render", body).then(
        (response) => {
          if (cancelled) return
          setPreview(response.data)
          setError(undefined)
        },
        (failure: unknown) => !cancelled && setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)))
      )
    }, 500)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [key])
  const problems = error ? Object.values(error.errors).flat() : []
  return (
    <div class="preview">
      {markdown && (
        <p class="muted" role="note">
          {template ? "Markdown is previewed as last saved (with the subject above): save to see body changes." : "Markdown is previewed once the template is created."}
        </p>
      )}
      {jsonProblem && (
        <p class="error" role="status">
          {jsonProblem}
        </p>
      )}
      <p class="preview-subject">
        <span class="muted">Subject:</span> {preview?.subject ?? "…"}
      </p>
      {error && (
        <p class="error" role="status">
          {problems.length > 0 ? problems.join(" ") : error.message}
        </p>
      )}
      <iframe title="Preview of the mail" sandbox="" srcdoc={preview?.html ?? ""} class="preview-frame" />
      {preview && (
        <details class="transactional-text">
          <summary>Text version</summary>
          <pre>{preview.text}</pre>
        </details>
      )}
    </div>
  )
}

const Figure = ({ label, value }: { label: string; value: string }) => (
  <div>
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)

/** One logged transactional mail: its addresses, state, opens and clicks, its content, and a resend. */
export const TransactionalMailDetail = ({ mail }: { mail: string }) => {
  const [pending, setPending] = useState(false)
  const loaded = useApi<{ data: TransactionalMail }>(`/transactional-mails/${mail}`, pending ? 3000 : 30_000)
  const canWrite = useCan("write")
  const action = useAction()
  const [resent, setResent] = useState(false)
  const data = loaded.data?.data
  useEffect(() => setPending(data?.status === "pending"), [data?.status])
  const resend = () => {
    setResent(false)
    void action.run(() => api.post(`/transactional-mails/${mail}/resend`)).then((ok) => {
      if (!ok) return
      setResent(true)
      loaded.reload()
    })
  }
  return (
    <Page
      title={data?.subject || "Transactional mail"}
      back={<Link href="/transactional">← Transactional mails</Link>}
      actions={
        canWrite &&
        data &&
        !data.fake && (
          <ConfirmButton question={`Send this mail again to ${addresses([...data.to, ...data.cc, ...data.bcc])}?`} onConfirm={resend} disabled={action.busy}>
            Resend
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={loaded.error} />
      {action.error?.status === 406 ? (
        <div class="error" role="alert">
          <p>
            <strong>Not resent.</strong> {action.error.message}
          </p>
          <p>
            Remove the address from the <Link href="/suppressions">suppressions</Link> to send to it again.
          </p>
        </div>
      ) : (
        <ErrorMessage error={action.error} />
      )}
      {resent && <p role="status">The mail is queued to be sent again.</p>}
      {data && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={data.status} />
              {data.fake && (
                <>
                  {" "}
                  <Badge value="fake" /> <span class="muted">logged only, never sent</span>
                </>
              )}
            </dd>
            {data.failure_reason && (
              <>
                <dt>Failure</dt>
                <dd class="error-text">{data.failure_reason}</dd>
              </>
            )}
            <dt>Template</dt>
            <dd>{data.mail_name ?? "Inline content"}</dd>
            <dt>From</dt>
            <dd class="url">{addresses(data.from)}</dd>
            <dt>To</dt>
            <dd class="url">{addresses(data.to)}</dd>
            {data.cc.length > 0 && (
              <>
                <dt>Cc</dt>
                <dd class="url">{addresses(data.cc)}</dd>
              </>
            )}
            {data.bcc.length > 0 && (
              <>
                <dt>Bcc</dt>
                <dd class="url">{addresses(data.bcc)}</dd>
              </>
            )}
            {data.reply_to.length > 0 && (
              <>
                <dt>Reply to</dt>
                <dd class="url">{addresses(data.reply_to)}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatDate(data.created_at)}</dd>
            {data.attachments.length > 0 && (
              <>
                <dt>Attachments</dt>
                <dd>{data.attachments.join(", ")}</dd>
              </>
            )}
            <dt>Message id</dt>
            <dd class="url">
              <code>{data.transport_message_id ?? "–"}</code>
            </dd>
          </dl>
          <dl class="stats" aria-label="Figures">
            <Figure label="Opens" value={data.track_opens ? formatNumber(data.opens) : "not tracked"} />
            <Figure label="Clicks" value={data.track_clicks ? formatNumber(data.clicks) : "not tracked"} />
          </dl>
          <Panel title="Content">
            <iframe title="The mail as sent" sandbox="" srcdoc={data.html} class="preview-frame" />
            {data.text !== null && (
              <details class="transactional-text">
                <summary>Text version</summary>
                <pre>{data.text}</pre>
              </details>
            )}
          </Panel>
        </>
      )}
    </Page>
  )
}
