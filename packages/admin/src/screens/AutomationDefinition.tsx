import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { api, type Collection } from "../api/client"
import type { AutomationMail, EmailList, Segment } from "../api/types"
import { useApi, useSave } from "../api/useApi"
import { FormError } from "../components/ErrorMessage"
import { CheckField, SelectField, TextArea, TextField } from "../components/Field"
import { Panel } from "../components/Page"
import { SaveActions } from "../components/SaveActions"
import { Link } from "../router"
import { type Automation, type AutomationAction, BRANCHES } from "./automationTypes"

const DEFINITION_HINT =
  "Triggers: subscribed, tag_added {tag}, tag_removed {tag}, date {at, repeat}, attribute_date {attribute, offset_days, yearly}, webhook, none. " +
  "Steps: send_mail {automation_mail_uuid}, wait {length, unit}, condition {condition, window, yes, no}, split {left, right}, add_tags or remove_tags {tags}, " +
  "unsubscribe, halt, webhook {url, secret}, subscribe_to_list {email_list_uuid, tags}. Keep each step's uuid: subscribers on it stay there; those on a removed step are halted."

const COUNT_KEYS = ["active", "completed", "halted"]

/** The actions as the write body takes them: without the live counts (refused as unknown), uuids kept. */
const writableActions = (actions: ReadonlyArray<AutomationAction>): ReadonlyArray<Record<string, unknown>> =>
  actions.map((action) =>
    Object.fromEntries(
      Object.entries(action)
        .filter(([key]) => !COUNT_KEYS.includes(key))
        .map(([key, value]) => [key, BRANCHES.includes(key) && Array.isArray(value) ? writableActions(value as ReadonlyArray<AutomationAction>) : value])
    )
  )

/** The trigger and steps as the editor shows them. */
const definitionText = (automation: Automation): string =>
  JSON.stringify({ trigger: automation.trigger, actions: writableActions(automation.actions) }, null, 2)

/** An automation's name, list, segment, repeats and its trigger and steps as JSON, saved together. */
export const AutomationDefinition = ({ automation, mails, lists, onSaved }: {
  automation: Automation
  mails: ReadonlyArray<AutomationMail> | undefined
  lists: ReadonlyArray<EmailList> | undefined
  onSaved: () => void
}) => {
  const [name, setName] = useState(automation.name)
  const [list, setList] = useState(automation.email_list_uuid ?? "")
  const [segment, setSegment] = useState(automation.segment_uuid ?? "")
  const [repeat, setRepeat] = useState(automation.repeat_enabled)
  const [afterHalt, setAfterHalt] = useState(automation.repeat_only_after_halt)
  const [definition, setDefinition] = useState(definitionText(automation))
  const [jsonProblem, setJsonProblem] = useState<string | undefined>(undefined)
  const segments = useApi<Collection<Segment>>(list ? `/email-lists/${list}/segments?per_page=100` : null)
  const action = useSave()
  const reset = (from: Automation) => {
    setName(from.name)
    setList(from.email_list_uuid ?? "")
    setSegment(from.segment_uuid ?? "")
    setRepeat(from.repeat_enabled)
    setAfterHalt(from.repeat_only_after_halt)
    setDefinition(definitionText(from))
    setJsonProblem(undefined)
    action.clear()
  }
  const submit = async (event: Event) => {
    event.preventDefault()
    action.changed()
    let parsed: unknown
    try {
      parsed = JSON.parse(definition)
    } catch (problem) {
      setJsonProblem(`The definition is not valid JSON: ${problem instanceof Error ? problem.message : String(problem)}`)
      return
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || Object.keys(parsed).some((key) => key !== "trigger" && key !== "actions")) {
      setJsonProblem('The definition must be an object with "trigger" and "actions" only.')
      return
    }
    setJsonProblem(undefined)
    const { trigger, actions } = parsed as { trigger?: unknown; actions?: unknown }
    let answer: { data: Automation } | undefined
    const ok = await action.run(async () => {
      answer = await api.put<{ data: Automation }>(`/automations/${automation.uuid}`, {
        name,
        email_list_uuid: list || null,
        segment_uuid: segment || null,
        trigger: trigger ?? null,
        actions: actions ?? [],
        repeat_enabled: repeat,
        repeat_only_after_halt: afterHalt
      })
    })
    if (ok && answer) {
      reset(answer.data)
      onSaved()
    }
  }
  return (
    <Panel title="Definition" actions={<button type="button" onClick={() => reset(automation)}>Reload saved version</button>}>
      <form onSubmit={submit}>
        <div class="grid-form">
          <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
          <SelectField
            label="Email list"
            name="email_list_uuid"
            value={list}
            onValue={(value) => {
              setList(value)
              setSegment("")
            }}
            error={action.error}
            options={[["", "No list"], ...(lists ?? []).map((l) => [l.uuid, l.name] as const)]}
          />
          <SelectField label="Segment" name="segment_uuid" value={segment} onValue={setSegment} error={action.error} options={[["", "All subscribers"], ...(segments.data?.data ?? []).map((s) => [s.uuid, s.name] as const)]} />
          <CheckField label="Subscribers may go through it more than once" name="repeat_enabled" checked={repeat} onChecked={setRepeat} />
          {repeat && <CheckField label="Only after every earlier run was halted" name="repeat_only_after_halt" checked={afterHalt} onChecked={setAfterHalt} />}
        </div>
        <TextArea
          label="Trigger and steps (JSON)"
          name="definition"
          value={definition}
          onValue={(value) => {
            setDefinition(value)
            action.changed()
          }}
          rows={22}
          mono
          hint={DEFINITION_HINT}
        />
        <details class="automation-uuids">
          <summary>Uuids to use in steps</summary>
          <dl class="facts">
            {(mails ?? []).map((mail) => (
              <Fragment key={mail.uuid}>
                <dt>Mail {mail.name}</dt>
                <dd>
                  <code>{mail.uuid}</code>
                </dd>
              </Fragment>
            ))}
            {(lists ?? []).map((l) => (
              <Fragment key={l.uuid}>
                <dt>List {l.name}</dt>
                <dd>
                  <code>{l.uuid}</code>
                </dd>
              </Fragment>
            ))}
          </dl>
          {mails?.length === 0 && (
            <p>
              No automation mails yet: <Link href="/automation-mails">create one</Link> to send it from a step.
            </p>
          )}
        </details>
        {jsonProblem && (
          <p class="error" role="alert">
            {jsonProblem}
          </p>
        )}
        <FormError error={action.error} fields={["name", "email_list_uuid", "segment_uuid"]} />
        <SaveActions busy={action.busy} saved={action.saved}>
          {automation.status === "started" && <span class="muted">It is started: changes apply to the next step of each subscriber.</span>}
        </SaveActions>
      </form>
    </Panel>
  )
}
