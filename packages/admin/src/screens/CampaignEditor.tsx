import { useEffect, useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import type { Campaign, EmailList, Segment, Subscriber, Template } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { campaignBody } from "../api/writable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, SelectField, TextField } from "../components/Field"
import { MailContentFields } from "../components/MailContentFields"
import { MailPreview } from "../components/MailPreview"
import { Page, Panel } from "../components/Page"
import { Link, navigate } from "../router"

const STARTER = `<h1>Hello {{ subscriber.first_name | default: "there" }}</h1>\n<p>Write your news here.</p>\n<p><a href="https://example.com">Read more</a></p>`

/** Create or edit a campaign: list, segment, subject, content from a template's fields or HTML, with a live preview. */
export const CampaignEditor = ({ campaign }: { campaign?: string }) => {
  const loaded = useApi<{ data: Campaign }>(campaign ? `/campaigns/${campaign}` : null)
  if (campaign && loaded.data === undefined) {
    return (
      <Page title="Edit campaign">
        <ErrorMessage error={loaded.error} />
        {!loaded.error && <p aria-busy="true">Loading…</p>}
      </Page>
    )
  }
  return <Editor key={campaign ?? "new"} campaign={loaded.data?.data} />
}

const Editor = ({ campaign }: { campaign: Campaign | undefined }) => {
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100&sort=name")
  const templates = useApi<Collection<Template>>("/templates?per_page=100")
  const [name, setName] = useState(campaign?.name ?? "")
  const [list, setList] = useState(campaign?.email_list_uuid ?? "")
  const [segment, setSegment] = useState(campaign?.segment_uuid ?? "")
  const [subject, setSubject] = useState(campaign?.subject ?? "")
  const [fromEmail, setFromEmail] = useState(campaign?.from_email ?? "")
  const [fromName, setFromName] = useState(campaign?.from_name ?? "")
  const [template, setTemplate] = useState(campaign?.template_uuid ?? "")
  const [fields, setFields] = useState<Record<string, string>>(Array.isArray(campaign?.fields) || !campaign ? {} : { ...campaign.fields })
  const [html, setHtml] = useState(campaign?.html ?? STARTER)
  const [trackOpens, setTrackOpens] = useState(campaign?.track_opens ?? true)
  const [trackClicks, setTrackClicks] = useState(campaign?.track_clicks ?? true)
  const [utmTags, setUtmTags] = useState(campaign?.utm_tags ?? true)
  const [previewFor, setPreviewFor] = useState("")
  const action = useAction()

  useEffect(() => {
    const first = lists.data?.data[0]
    if (list === "" && first) setList(first.uuid)
  }, [lists.data])
  const segments = useApi<Collection<Segment>>(list ? `/email-lists/${list}/segments?per_page=100` : null)
  const subscribers = useApi<Collection<Subscriber>>(list ? `/email-lists/${list}/subscribers?per_page=20&filter[status]=subscribed` : null)

  const content = template !== "" ? { template_uuid: template, fields, html: null } : { template_uuid: null, html }
  const body = {
    ...(campaign ? campaignBody(campaign) : {}),
    name,
    email_list_uuid: list,
    segment_uuid: segment || null,
    subject,
    from_email: fromEmail || null,
    from_name: fromName || null,
    ...content,
    track_opens: trackOpens,
    track_clicks: trackClicks,
    utm_tags: utmTags
  }
  const previewBody = { email_list_uuid: list || undefined, subject, ...content, ...(previewFor ? { subscriber_uuid: previewFor } : {}) }

  const save = async (event: Event) => {
    event.preventDefault()
    let saved: { data: Campaign } | undefined
    const ok = await action.run(async () => {
      saved = campaign ? await api.put<{ data: Campaign }>(`/campaigns/${campaign.uuid}`, body) : await api.post<{ data: Campaign }>("/campaigns", body)
    })
    if (ok && saved) navigate(`/campaigns/${saved.data.uuid}`)
  }

  return (
    <Page title={campaign ? `Edit ${campaign.name}` : "New campaign"} back={<Link href={campaign ? `/campaigns/${campaign.uuid}` : "/campaigns"}>← {campaign ? campaign.name : "Campaigns"}</Link>}>
      <ErrorMessage error={lists.error ?? templates.error} />
      {lists.data?.data.length === 0 && (
        <p class="notice">
          A campaign goes to an email list: <Link href="/lists">create a list</Link> first.
        </p>
      )}
      <form class="compose" onSubmit={save}>
        <div class="compose-form">
          <Panel title="Audience">
            <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required hint="Only you see it." />
            <SelectField label="Email list" name="email_list_uuid" value={list} onValue={(value) => { setList(value); setSegment(""); setPreviewFor("") }} error={action.error} options={(lists.data?.data ?? []).map((l) => [l.uuid, `${l.name} (${l.active_subscribers_count})`] as const)} />
            <SelectField label="Segment" name="segment_uuid" value={segment} onValue={setSegment} error={action.error} options={[["", "All subscribers"], ...(segments.data?.data ?? []).map((s) => [s.uuid, s.name] as const)]} />
          </Panel>
          <Panel title="Message">
            <TextField label="Subject" name="subject" value={subject} onValue={setSubject} error={action.error} required />
            <TextField label="From address" name="from_email" type="email" value={fromEmail} onValue={setFromEmail} error={action.error} hint="Empty: the list's from address." />
            <TextField label="From name" name="from_name" value={fromName} onValue={setFromName} error={action.error} />
            <MailContentFields templates={templates.data?.data} template={template} onTemplate={setTemplate} html={html} onHtml={setHtml} fields={fields} onFields={setFields} error={action.error} />
          </Panel>
          <Panel title="Tracking">
            <CheckField label="Track opens" name="track_opens" checked={trackOpens} onChecked={setTrackOpens} />
            <CheckField label="Track clicks" name="track_clicks" checked={trackClicks} onChecked={setTrackClicks} />
            <CheckField label="Add UTM tags to links" name="utm_tags" checked={utmTags} onChecked={setUtmTags} />
          </Panel>
          <FormError error={action.error} fields={["name", "email_list_uuid", "segment_uuid", "subject", "from_email", "from_name", "template_uuid", "html", ...Object.keys(fields).map((f) => `fields.${f}`)]} />
          <div class="form-actions">
            <button type="submit" class="primary" disabled={action.busy}>
              {campaign ? "Save" : "Create draft"}
            </button>
            <span class="muted">Sending, a test and scheduling are on the next screen.</span>
          </div>
        </div>
        <aside class="compose-preview" aria-label="Preview">
          <SelectField label="Preview for" name="preview_subscriber" value={previewFor} onValue={setPreviewFor} options={[["", "Sample values"], ...(subscribers.data?.data ?? []).map((s) => [s.uuid, s.email] as const)]} />
          <MailPreview body={previewBody} />
        </aside>
      </form>
    </Page>
  )
}
