import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import type { AutomationMail, Template } from "../api/types"
import { useApi, useSave } from "../api/useApi"
import { writable } from "../api/writable"
import { FormError } from "../components/ErrorMessage"
import { CheckField, TextField } from "../components/Field"
import { MailContentFields } from "../components/MailContentFields"
import { Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"

const AUTOMATION_MAIL_FIELDS = [
  "name", "subject", "from_email", "from_name", "reply_to_email", "html", "template_uuid", "fields", "utm_tags",
  "add_subscriber_tags", "add_subscriber_link_tags", "track_opens", "track_clicks"
]

/** An automation mail's content and settings, saved with `PUT /api/automation-mails/{uuid}`. */
export const AutomationMailForm = ({ mail, editable, onSaved }: { mail: AutomationMail; editable: boolean; onSaved: () => void }) => {
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
  const action = useSave(JSON.stringify(body))
  const submit = async (event: Event) => {
    event.preventDefault()
    if (await action.run(() => api.put(`/automation-mails/${mail.uuid}`, body))) onSaved()
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
          <MailContentFields templates={templates.data?.data} template={template} onTemplate={setTemplate} html={html} onHtml={setHtml} fields={fields} onFields={setFields} error={action.error} />
          <CheckField label="Track opens" name="track_opens" checked={trackOpens} onChecked={setTrackOpens} />
          <CheckField label="Track clicks" name="track_clicks" checked={trackClicks} onChecked={setTrackClicks} />
          <CheckField label="Add UTM tags to links" name="utm_tags" checked={utmTags} onChecked={setUtmTags} />
          <CheckField label="Tag subscribers who open or click" name="add_subscriber_tags" checked={subscriberTags} onChecked={setSubscriberTags} hint={`automation-mail-${mail.uuid}-opened and -clicked`} />
          <CheckField label="Tag subscribers with the links they click" name="add_subscriber_link_tags" checked={linkTags} onChecked={setLinkTags} />
        </fieldset>
        <FormError error={action.error} fields={["name", "subject", "from_email", "from_name", "reply_to_email", "template_uuid", "html", ...Object.keys(fields).map((f) => `fields.${f}`)]} />
        {editable && <SaveActions busy={action.busy} saved={action.saved} />}
      </form>
    </Panel>
  )
}
