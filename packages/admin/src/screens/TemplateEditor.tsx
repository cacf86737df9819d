import { useState } from "preact/hooks"
import { api } from "../api/client"
import { useCan } from "../api/session"
import type { Template } from "../api/types"
import { useApi, useSave } from "../api/useApi"
import { TEMPLATE_FIELDS, writable } from "../api/writable"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextArea, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { Link, navigate } from "../router"

const STARTER = `<!doctype html>
<html>
  <body style="font-family: sans-serif; max-width: 600px; margin: auto">
    <h1>[[[title]]]</h1>
    [[[content:markdown]]]
    <p style="color: #666; font-size: 12px"><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>
  </body>
</html>`

/** The template's HTML with each [[[field]]] slot shown as a marked sample, for the live preview. */
const withSamples = (html: string) =>
  html.replace(/\[\[\[\s*([a-z0-9_]+)(?::[a-z]+)?\s*\]\]\]/gi, (_match, name: string) => `<div style="outline: 2px dashed #6366f1; padding: 4px; margin: 4px 0; color: #4338ca">${name}</div>`)

/** Create or edit a template: its HTML in an editor beside a live preview where each field slot is marked. */
export const TemplateEditor = ({ template }: { template?: string }) => {
  const loaded = useApi<{ data: Template }>(template ? `/templates/${template}` : null)
  if (template && loaded.data === undefined) {
    return (
      <Page title="Template">
        <ErrorMessage error={loaded.error} />
        {!loaded.error && <p aria-busy="true">Loading…</p>}
      </Page>
    )
  }
  return <Editor key={template ?? "new"} template={loaded.data?.data} />
}

const Editor = ({ template }: { template: Template | undefined }) => {
  const [name, setName] = useState(template?.name ?? "")
  const [html, setHtml] = useState(template?.html ?? STARTER)
  const canWrite = useCan("write")
  const action = useSave()
  const submit = async (event: Event) => {
    event.preventDefault()
    let result: { data: Template } | undefined
    const ok = await action.run(async () => {
      result = template ? await api.put<{ data: Template }>(`/templates/${template.uuid}`, { ...writable(template, TEMPLATE_FIELDS), name, html }) : await api.post<{ data: Template }>("/templates", { name, html })
    })
    if (ok && result && !template) navigate(`/templates/${result.data.uuid}`, true)
  }
  return (
    <Page
      title={template ? template.name : "New template"}
      back={<Link href="/templates">← Templates</Link>}
      actions={
        canWrite && template && (
          <ConfirmButton danger question={`Delete the template ${template.name}?`} onConfirm={() => action.run(() => api.delete(`/templates/${template.uuid}`)).then((ok) => ok && navigate("/templates"))}>
            Delete
          </ConfirmButton>
        )
      }
    >
      <form class="compose" onSubmit={submit}>
        <div class="compose-form">
          <Panel title="Template">
            <fieldset disabled={!canWrite}>
              <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
              <TextArea label="HTML" name="html" value={html} onValue={setHtml} error={action.error} rows={22} mono hint="[[[field]]] marks a slot a campaign fills; [[[field:markdown]]] takes Markdown. Liquid works: {{ subscriber.first_name }}." />
            </fieldset>
            <FormError error={action.error} fields={["name", "html"]} />
            {canWrite && <SaveActions busy={action.busy} saved={action.saved} label={template ? "Save" : "Create template"} />}
          </Panel>
        </div>
        <aside class="compose-preview" aria-label="Preview">
          <p class="preview-subject muted">Preview (field slots marked)</p>
          <iframe title="Preview of the template" sandbox="" srcdoc={withSamples(html)} class="preview-frame" />
        </aside>
      </form>
    </Page>
  )
}
