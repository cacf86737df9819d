import { useEffect, useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { Template } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { writable } from "../api/writable"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, SelectField, TextArea, TextField } from "../components/Field"
import { Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber, formatRate } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"

/** A mail that automations send, with statistics shaped like a campaign's (counts as strings, rates in basis points). */
export interface AutomationMail {
  readonly uuid: string
  readonly name: string
  readonly subject: string | null
  readonly from_email: string | null
  readonly from_name: string | null
  readonly reply_to_email: string | null
  readonly html: string | null
  readonly template_uuid: string | null
  readonly fields: Record<string, string>
  readonly email_html: string | null
  readonly webview_html: string | null
  readonly utm_tags: boolean
  readonly add_subscriber_tags: boolean
  readonly add_subscriber_link_tags: boolean
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly sent_to_number_of_subscribers: string
  readonly open_count: string
  readonly unique_open_count: string
  readonly open_rate: number
  readonly click_count: string
  readonly unique_click_count: string
  readonly click_rate: number
  readonly unsubscribe_count: string
  readonly unsubscribe_rate: string
  readonly bounce_count: string
  readonly bounce_rate: string
  readonly created_at: string
  readonly updated_at: string
}

/** A subscriber who opened the mail. */
interface MailOpen {
  readonly subscriber_uuid: string | null
  readonly subscriber_email: string
  readonly open_count: number
  readonly first_opened_at: string
  readonly last_opened_at: string
}

/** A tracked link of the mail with its clicks. */
interface MailClick {
  readonly url: string
  readonly unique_click_count: number
  readonly click_count: number
}

const AUTOMATION_MAIL_FIELDS = [
  "name", "subject", "from_email", "from_name", "reply_to_email", "html", "template_uuid", "fields", "utm_tags",
  "add_subscriber_tags", "add_subscriber_link_tags", "track_opens", "track_clicks"
]

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
        <label>
          Search <input type="search" value={search} placeholder="name or subject" onInput={(event) => setSearchParams({ search: event.currentTarget.value, page: null })} />
        </label>
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

/** One automation mail: its figures, its content and settings, a test send, and who opened it and what was clicked. */
export const AutomationMailDetail = ({ mail }: { mail: string }) => {
  const loaded = useApi<{ data: AutomationMail }>(`/automation-mails/${mail}`, 30_000)
  const canWrite = useCan("write")
  const canSend = useCan("send")
  const action = useAction()
  const data = loaded.data?.data
  return (
    <Page
      title={data?.name ?? "Automation mail"}
      back={<Link href="/automation-mails">← Automation mails</Link>}
      actions={
        canWrite &&
        data && (
          <ConfirmButton danger question={`Delete the automation mail "${data.name}" and its statistics?`} onConfirm={() => action.run(() => api.delete(`/automation-mails/${mail}`)).then((ok) => ok && navigate("/automation-mails"))}>
            Delete
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={loaded.error} />
      {action.error?.status === 409 ? (
        <div class="error" role="alert">
          <p>
            <strong>Not deleted: a started automation still sends this mail.</strong> {action.error.message}
          </p>
          <p>
            See the <Link href="/automations?status=started">started automations</Link>.
          </p>
        </div>
      ) : (
        <ErrorMessage error={action.error} />
      )}
      {data && (
        <>
          <dl class="stats" aria-label="Figures">
            <Figure label="Sent" value={formatNumber(data.sent_to_number_of_subscribers)} />
            <Figure label="Opens" value={`${formatNumber(data.unique_open_count)} (${formatRate(data.open_rate)})`} />
            <Figure label="Clicks" value={`${formatNumber(data.unique_click_count)} (${formatRate(data.click_rate)})`} />
            <Figure label="Unsubscribes" value={`${formatNumber(data.unsubscribe_count)} (${formatRate(data.unsubscribe_rate)})`} />
            <Figure label="Bounces" value={`${formatNumber(data.bounce_count)} (${formatRate(data.bounce_rate)})`} />
          </dl>
          {canSend && <TestSend mail={mail} />}
          <MailForm key={data.uuid} mail={data} editable={canWrite} onSaved={loaded.reload} />
        </>
      )}
      <Opens mail={mail} />
      <Clicks mail={mail} />
    </Page>
  )
}

const Figure = ({ label, value }: { label: string; value: string }) => (
  <div>
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)

const MailForm = ({ mail, editable, onSaved }: { mail: AutomationMail; editable: boolean; onSaved: () => void }) => {
  const templates = useApi<Collection<Template>>("/templates?per_page=100")
  const [name, setName] = useState(mail.name)
  const [subject, setSubject] = useState(mail.subject ?? "")
  const [fromEmail, setFromEmail] = useState(mail.from_email ?? "")
  const [fromName, setFromName] = useState(mail.from_name ?? "")
  const [replyTo, setReplyTo] = useState(mail.reply_to_email ?? "")
  const [template, setTemplate] = useState(mail.template_uuid ?? "")
  const [fields, setFields] = useState<Record<string, string>>({ ...mail.fields })
  const [html, setHtml] = useState(mail.html ?? "")
  const [utmTags, setUtmTags] = useState(mail.utm_tags)
  const [subscriberTags, setSubscriberTags] = useState(mail.add_subscriber_tags)
  const [linkTags, setLinkTags] = useState(mail.add_subscriber_link_tags)
  const [trackOpens, setTrackOpens] = useState(mail.track_opens)
  const [trackClicks, setTrackClicks] = useState(mail.track_clicks)
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const chosenTemplate = templates.data?.data.find((t) => t.uuid === template)
  const body = {
    ...writable(mail, AUTOMATION_MAIL_FIELDS),
    name,
    subject: subject || null,
    from_email: fromEmail || null,
    from_name: fromName || null,
    reply_to_email: replyTo || null,
    ...(template !== "" ? { template_uuid: template, fields, html: null } : { template_uuid: null, fields: null, html }),
    utm_tags: utmTags,
    add_subscriber_tags: subscriberTags,
    add_subscriber_link_tags: linkTags,
    track_opens: trackOpens,
    track_clicks: trackClicks
  }
  useEffect(() => setSaved(false), [JSON.stringify(body)])
  const submit = async (event: Event) => {
    event.preventDefault()
    if (await action.run(() => api.put(`/automation-mails/${mail.uuid}`, body))) {
      setSaved(true)
      onSaved()
    }
  }
  return (
    <Panel title="Content and settings">
      <form class="grid-form" onSubmit={submit}>
        <fieldset disabled={!editable}>
          <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
          <TextField label="Subject" name="subject" value={subject} onValue={setSubject} error={action.error} />
          <TextField label="From address" name="from_email" type="email" value={fromEmail} onValue={setFromEmail} error={action.error} hint="Empty: the sender of the subscriber's list." />
          <TextField label="From name" name="from_name" value={fromName} onValue={setFromName} error={action.error} />
          <TextField label="Reply-to address" name="reply_to_email" type="email" value={replyTo} onValue={setReplyTo} error={action.error} />
          <SelectField label="Content" name="template_uuid" value={template} onValue={setTemplate} error={action.error} options={[["", "HTML written here"], ...(templates.data?.data ?? []).map((t) => [t.uuid, `Template: ${t.name}`] as const)]} />
          {template === "" ? (
            <TextArea label="HTML" name="html" value={html} onValue={setHtml} error={action.error} rows={14} mono hint="Liquid works: {{ subscriber.first_name }}, {{ subscriber.email }}, {{ unsubscribe_url }}." />
          ) : (
            (chosenTemplate?.fields ?? []).map((field) => (
              <TextArea
                key={field.name}
                label={`${field.name}${field.type.toLowerCase() === "markdown" ? " (Markdown)" : ""}`}
                name={`fields.${field.name}`}
                value={fields[field.name] ?? ""}
                onValue={(value) => setFields({ ...fields, [field.name]: value })}
                error={action.error}
                rows={8}
                mono
              />
            ))
          )}
          <CheckField label="Track opens" name="track_opens" checked={trackOpens} onChecked={setTrackOpens} />
          <CheckField label="Track clicks" name="track_clicks" checked={trackClicks} onChecked={setTrackClicks} />
          <CheckField label="Add UTM tags to links" name="utm_tags" checked={utmTags} onChecked={setUtmTags} />
          <CheckField label="Tag subscribers who open or click" name="add_subscriber_tags" checked={subscriberTags} onChecked={setSubscriberTags} hint={`automation-mail-${mail.uuid}-opened and -clicked`} />
          <CheckField label="Tag subscribers with the links they click" name="add_subscriber_link_tags" checked={linkTags} onChecked={setLinkTags} />
        </fieldset>
        <FormError error={action.error} fields={["name", "subject", "from_email", "from_name", "reply_to_email", "template_uuid", "html", ...Object.keys(fields).map((f) => `fields.${f}`)]} />
        {editable && (
          <div class="form-actions">
            <button type="submit" class="primary" disabled={action.busy}>
              Save
            </button>
            {saved && <span role="status">Saved.</span>}
          </div>
        )}
      </form>
    </Panel>
  )
}

const TestSend = ({ mail }: { mail: string }) => {
  const [email, setEmail] = useState("")
  const [sent, setSent] = useState<string | undefined>(undefined)
  const action = useAction()
  return (
    <Panel title="Test mail">
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault()
          setSent(undefined)
          if (await action.run(() => api.post(`/automation-mails/${mail}/send-test`, { email }))) setSent(email)
        }}
      >
        <TextField label="Send a test to" name="email" value={email} onValue={setEmail} error={action.error} required hint="Up to 10 addresses, comma-separated. The saved version is sent." />
        <button type="submit" disabled={action.busy}>
          Send test
        </button>
      </form>
      <FormError error={action.error} fields={["email"]} />
      {sent && <p role="status">Test sent to {sent}.</p>}
    </Panel>
  )
}

const Opens = ({ mail }: { mail: string }) => {
  const params = useSearchParams()
  const opens = useApi<Collection<MailOpen>>(`/automation-mails/${mail}/opens${query({ page: params.get("opens"), per_page: 10 })}`, 30_000)
  return (
    <Panel title="Opened by">
      <ErrorMessage error={opens.error} />
      <DataTable
        caption="Subscribers who opened"
        rows={opens.data?.data}
        rowKey={(open) => open.subscriber_email}
        empty="Nobody opened it yet."
        columns={[
          { title: "Subscriber", cell: (open) => (open.subscriber_uuid ? <Link href={`/subscribers/${open.subscriber_uuid}`}>{open.subscriber_email}</Link> : open.subscriber_email) },
          { title: "Opens", numeric: true, cell: (open) => formatNumber(open.open_count) },
          { title: "First opened", wide: true, cell: (open) => formatDate(open.first_opened_at) },
          { title: "Last opened", wide: true, cell: (open) => formatDate(open.last_opened_at) }
        ]}
      />
      <Pager meta={opens.data?.meta} onPage={(page) => setSearchParams({ opens: page })} />
    </Panel>
  )
}

const Clicks = ({ mail }: { mail: string }) => {
  const params = useSearchParams()
  const clicks = useApi<Collection<MailClick>>(`/automation-mails/${mail}/clicks${query({ page: params.get("links"), per_page: 10 })}`, 30_000)
  return (
    <Panel title="Links">
      <ErrorMessage error={clicks.error} />
      <DataTable
        caption="Links and their clicks"
        rows={clicks.data?.data}
        rowKey={(link) => link.url}
        empty="No tracked links yet."
        columns={[
          { title: "Link", cell: (link) => <span class="url">{link.url}</span> },
          { title: "Unique clicks", numeric: true, cell: (link) => formatNumber(link.unique_click_count) },
          { title: "Clicks", numeric: true, cell: (link) => formatNumber(link.click_count) }
        ]}
      />
      <Pager meta={clicks.data?.meta} onPage={(page) => setSearchParams({ links: page })} />
    </Panel>
  )
}
