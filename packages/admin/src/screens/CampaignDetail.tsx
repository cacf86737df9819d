import { useEffect, useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { Campaign } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { campaignBody } from "../api/writable"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { TestSendForm } from "../components/TestSendForm"
import { formatDate, formatNumber, formatRate, toApiTime } from "../format"
import { Link, navigate } from "../router"
import { CampaignStatistics } from "./CampaignStatistics"

/** A campaign: its state and progress while it sends, what can be done with it now, and its statistics. */
export const CampaignDetail = ({ campaign }: { campaign: string }) => {
  const [fast, setFast] = useState(false)
  const loaded = useApi<{ data: Campaign }>(`/campaigns/${campaign}`, fast ? 1000 : 5000)
  const canWrite = useCan("write")
  const canSend = useCan("send")
  const action = useAction()
  const data = loaded.data?.data
  const sending = data?.status === "sending"
  useEffect(() => setFast(sending), [sending])
  const post = (path: string) => action.run(() => api.post(`/campaigns/${campaign}/${path}`)).then((ok) => ok && loaded.reload())
  return (
    <Page
      title={data?.name ?? "Campaign"}
      back={<Link href="/campaigns">← Campaigns</Link>}
      actions={
        data && (
          <>
            {canWrite && data.status === "draft" && <Link class="button" href={`/campaigns/${campaign}/edit`}>Edit</Link>}
            {canSend && data.status === "draft" && (
              <ConfirmButton question={`Send "${data.name}" to ${data.segment_description} now?`} onConfirm={() => post("send")}>
                Send now
              </ConfirmButton>
            )}
            {canWrite && data.status === "sending" && <button type="button" onClick={() => post("pause")}>Pause</button>}
            {canWrite && data.status === "paused" && <button type="button" onClick={() => post("resume")}>Resume</button>}
            {canWrite && (data.status === "draft" || data.status === "scheduled" || data.status === "sent" || data.status === "cancelled") && (
              <ConfirmButton danger question={`Delete the campaign "${data.name}" and its statistics?`} onConfirm={() => action.run(() => api.delete(`/campaigns/${campaign}`)).then((ok) => ok && navigate("/campaigns"))}>
                Delete
              </ConfirmButton>
            )}
          </>
        )
      }
    >
      <ErrorMessage error={loaded.error ?? action.error} />
      {data && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd><Badge value={data.status} /></dd>
            <dt>Subject</dt>
            <dd>{data.subject ?? "–"}</dd>
            <dt>Audience</dt>
            <dd><Link href={`/lists/${data.email_list_uuid}`}>{data.segment_description}</Link></dd>
            <dt>{data.status === "scheduled" ? "Scheduled for" : "Sent"}</dt>
            <dd>{formatDate(data.status === "scheduled" ? data.scheduled_at : data.sent_at)}</dd>
          </dl>
          {(data.status === "sending" || data.status === "paused" || data.status === "sent") && <Progress campaign={data} />}
          {data.status === "draft" && canSend && <TestSendForm path={`/campaigns/${campaign}/send-test`} />}
          {(data.status === "draft" || data.status === "scheduled") && canWrite && <Schedule campaign={data} onDone={loaded.reload} />}
          {data.status !== "draft" && data.status !== "scheduled" && <CampaignStatistics campaign={data} />}
        </>
      )}
    </Page>
  )
}

const Progress = ({ campaign }: { campaign: Campaign }) => {
  const live = campaign.status === "sending" ? 1000 : undefined
  const all = useApi<Collection<unknown>>(`/sends?filter[campaign_uuid]=${campaign.uuid}&per_page=1`, live)
  const failed = useApi<Collection<unknown>>(`/sends?filter[campaign_uuid]=${campaign.uuid}&filter[status]=failed&per_page=1`, live)
  const total = all.data?.meta.total ?? 0
  const sent = Number(campaign.sent_to_number_of_subscribers)
  const failures = failed.data?.meta.total ?? 0
  const done = campaign.status === "sent" ? total : Math.min(sent + failures, total)
  return (
    <Panel title="Delivery">
      <label class="progress-label">
        {formatNumber(sent)} of {formatNumber(total)} sent{failures > 0 ? `, ${formatNumber(failures)} failed` : ""}
        <progress max={Math.max(total, 1)} value={done} aria-valuetext={`${formatNumber(done)} of ${formatNumber(total)}`} />
      </label>
      <p class="muted">
        Opened {formatRate(campaign.open_rate)} · clicked {formatRate(campaign.click_rate)} · unsubscribed {formatRate(campaign.unsubscribe_rate)} · bounced {formatRate(campaign.bounce_rate)}
      </p>
    </Panel>
  )
}

const Schedule = ({ campaign, onDone }: { campaign: Campaign; onDone: () => void }) => {
  const [at, setAt] = useState("")
  const action = useAction()
  const update = (scheduleAt: string | null) =>
    action.run(async () => {
      const { data } = await api.get<{ data: Campaign }>(`/campaigns/${campaign.uuid}`)
      await api.put(`/campaigns/${campaign.uuid}`, { ...campaignBody(data), schedule_at: scheduleAt })
    }).then((ok) => ok && onDone())
  return (
    <Panel title="Schedule">
      {campaign.status === "scheduled" ? (
        <p>
          Goes out {formatDate(campaign.scheduled_at)}.{" "}
          <button type="button" onClick={() => update(null)}>Unschedule</button>
        </p>
      ) : (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            if (at !== "") void update(toApiTime(at))
          }}
        >
          <TextField label="Send at (your time)" name="schedule_at" type="datetime-local" value={at} onValue={setAt} error={action.error} required />
          <button type="submit" disabled={action.busy}>Schedule</button>
        </form>
      )}
      <FormError error={action.error} fields={["schedule_at"]} />
    </Panel>
  )
}
