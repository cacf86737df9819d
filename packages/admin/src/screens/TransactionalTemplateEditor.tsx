import { useState } from "preact/hooks"
import { api } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi, useSave } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { Figure } from "../components/Figure"
import { CheckField, SelectField, TextArea, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { formatNumber } from "../format"
import { Link, navigate } from "../router"
import type { TransactionalTemplate } from "./transactionalTypes"
import { TransactionalPreview } from "./TransactionalPreview"

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
  const action = useSave(JSON.stringify(body))

  const save = async (event: Event) => {
    event.preventDefault()
    let answer: { data: TransactionalTemplate } | undefined
    const ok = await action.run(async () => {
      answer = template
        ? await api.put<{ data: TransactionalTemplate }>(`/transactional-mails/templates/${template.uuid}`, body)
        : await api.post<{ data: TransactionalTemplate }>("/transactional-mails/templates", body)
    })
    if (ok && answer && !template) navigate(`/transactional/templates/${answer.data.uuid}`, true)
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
          {canWrite && <SaveActions busy={action.busy} saved={action.saved} label={template ? "Save" : "Create template"} />}
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
