import { api, type Collection } from "../api/client"
import { useCan } from "../api/session"
import type { Segment } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { Badge, Page } from "../components/Page"
import { Link, navigate } from "../router"
import { AutomationDefinition } from "./AutomationDefinition"
import { AutomationFlow } from "./AutomationFlow"
import { AutomationSubscribers } from "./AutomationSubscribers"
import type { Automation } from "./automationTypes"
import { useAutomationNames } from "./useAutomationNames"

/** One automation: its flow with live counts on each step, start and pause, its definition, and who is where. */
export const AutomationDetail = ({ automation }: { automation: string }) => {
  const loaded = useApi<{ data: Automation }>(`/automations/${automation}`, 5000)
  const { names, mails, lists, error } = useAutomationNames()
  const canWrite = useCan("write")
  const action = useAction()
  const data = loaded.data?.data
  const post = (path: string) => action.run(() => api.post(`/automations/${automation}/${path}`)).then((ok) => ok && loaded.reload())
  return (
    <Page
      title={data?.name ?? "Automation"}
      back={<Link href="/automations">← Automations</Link>}
      actions={
        canWrite &&
        data && (
          <>
            {data.status === "paused" ? (
              <button type="button" class="primary" disabled={action.busy} onClick={() => post("start")}>
                Start
              </button>
            ) : (
              <button type="button" disabled={action.busy} onClick={() => post("pause")}>
                Pause
              </button>
            )}
            <ConfirmButton danger question={`Delete the automation "${data.name}"? Everyone in it leaves it.`} onConfirm={() => action.run(() => api.delete(`/automations/${automation}`)).then((ok) => ok && navigate("/automations"))}>
              Delete
            </ConfirmButton>
          </>
        )
      }
    >
      <ErrorMessage error={loaded.error ?? error} />
      <FormError error={action.error} fields={[]} />
      {data && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={data.status} />
            </dd>
            <dt>List</dt>
            <dd>{data.email_list_uuid ? <Link href={`/lists/${data.email_list_uuid}`}>{names.list(data.email_list_uuid)}</Link> : "No list yet"}</dd>
            {data.segment_uuid && (
              <>
                <dt>Segment</dt>
                <dd>
                  <SegmentName list={data.email_list_uuid} segment={data.segment_uuid} />
                </dd>
              </>
            )}
            <dt>Repeats</dt>
            <dd>{!data.repeat_enabled ? "Nobody enters twice" : data.repeat_only_after_halt ? "Again only after every earlier run was halted" : "Again whenever not in it"}</dd>
          </dl>
          <AutomationFlow automation={data} names={names} />
          {canWrite && <AutomationDefinition key={data.uuid} automation={data} mails={mails} lists={lists} onSaved={loaded.reload} />}
          <AutomationSubscribers automation={data} names={names} />
        </>
      )}
    </Page>
  )
}

/** A segment's name, looked up among its list's segments. */
const SegmentName = ({ list, segment }: { list: string | null; segment: string }) => {
  const segments = useApi<Collection<Segment>>(list ? `/email-lists/${list}/segments?per_page=100` : null)
  return <>{segments.data?.data.find((s) => s.uuid === segment)?.name ?? segment}</>
}
