import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { AutomationMail } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextArea, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { SearchFilter } from "../components/SearchFilter"
import { formatDate, formatNumber, formatRate } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

const STARTER = `<h1>Hello {{ subscriber.first_name | default: "there" }}</h1>\n<p>Write your message here.</p>`

/** Automation mails: what each has reached, a search, and a form to create one. */
export const AutomationMails = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const mails = useApi<Collection<AutomationMail>>(`/automation-mails${query({ page: params.get("page"), "filter[search]": search })}`, 30_000)
  const canWrite = useCan("write")
  return (
    <Page title="Automation mails">
      <p class="muted">The mails automations send to whoever reaches a "send mail" step: no list or schedule of their own.</p>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchFilter value={search} placeholder="name or subject" />
      </form>
      <ErrorMessage error={mails.error} />
      <DataTable
        caption="Automation mails"
        rows={mails.data?.data}
        rowKey={(mail) => mail.uuid}
        empty={search ? "No mail matches." : "No automation mails yet: create the first one below."}
        columns={[
          { title: "Name", cell: (m) => <Link href={`/automation-mails/${m.uuid}`}>{m.name}</Link> },
          { title: "Subject", wide: true, cell: (m) => m.subject ?? "–" },
          { title: "Sent", numeric: true, cell: (m) => formatNumber(m.sent_to_number_of_subscribers) },
          { title: "Opened", numeric: true, cell: (m) => formatRate(m.open_rate) },
          { title: "Clicked", numeric: true, cell: (m) => formatRate(m.click_rate) },
          { title: "Unsubscribed", numeric: true, wide: true, cell: (m) => formatRate(m.unsubscribe_rate) },
          { title: "Bounced", numeric: true, wide: true, cell: (m) => formatRate(m.bounce_rate) },
          { title: "Created", wide: true, cell: (m) => formatDate(m.created_at) }
        ]}
      />
      <Pager meta={mails.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && <NewAutomationMail />}
    </Page>
  )
}

const NewAutomationMail = () => {
  const [name, setName] = useState("")
  const [subject, setSubject] = useState("")
  const [fromEmail, setFromEmail] = useState("")
  const [fromName, setFromName] = useState("")
  const [html, setHtml] = useState(STARTER)
  const action = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    let created: { data: AutomationMail } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: AutomationMail }>("/automation-mails", {
        name,
        subject: subject || null,
        from_email: fromEmail || null,
        from_name: fromName || null,
        html
      })
    })
    if (ok && created) navigate(`/automation-mails/${created.data.uuid}`)
  }
  return (
    <Panel title="New automation mail">
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required hint="Automations pick the mail by this name." />
        <TextField label="Subject" name="subject" value={subject} onValue={setSubject} error={action.error} />
        <TextField label="From address" name="from_email" type="email" value={fromEmail} onValue={setFromEmail} error={action.error} hint="Empty: the sender of the subscriber's list." />
        <TextField label="From name" name="from_name" value={fromName} onValue={setFromName} error={action.error} />
        <TextArea label="HTML" name="html" value={html} onValue={setHtml} error={action.error} rows={10} mono hint="Liquid works: {{ subscriber.first_name }}, {{ unsubscribe_url }}." />
        <FormError error={action.error} fields={["name", "subject", "from_email", "from_name", "html"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Create mail
          </button>
        </div>
      </form>
    </Panel>
  )
}
