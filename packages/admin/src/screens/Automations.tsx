import { type ComponentChildren, Fragment } from "preact"
import { useState } from "preact/hooks"
import { api, type Collection, query } from "../api/client"
import { useCan } from "../api/session"
import type { EmailList, Segment, Subscriber } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { DataTable } from "../components/DataTable"
import { ErrorMessage, FormError } from "../components/ErrorMessage"
import { CheckField, SelectField, TextArea, TextField } from "../components/Field"
import { Badge, Page, Panel } from "../components/Page"
import { Pager } from "../components/Pager"
import { formatDate, formatNumber } from "../format"
import { Link, navigate, setSearchParams, useSearchParams } from "../router"
import type { AutomationMail } from "./AutomationMails"

/** What enrols subscribers: `{type, ...}` as the API writes it. */
interface Trigger {
  readonly type: string
  readonly tag?: string
  readonly at?: string
  readonly repeat?: string
  readonly attribute?: string
  readonly offset_days?: number
  readonly yearly?: boolean
}

/** A step as the API returns it: as written (`{type, ...}`), with its uuid, live counts and branches. */
interface Action {
  readonly uuid: string
  readonly type: string
  readonly active: number
  readonly completed: number
  readonly halted: number
  readonly [key: string]: unknown
}

/** An automation as the API returns it. */
interface Automation {
  readonly uuid: string
  readonly name: string
  readonly email_list_uuid: string | null
  readonly segment_uuid: string | null
  readonly status: "paused" | "started"
  readonly trigger: Trigger | null
  readonly actions: ReadonlyArray<Action>
  readonly repeat_enabled: boolean
  readonly repeat_only_after_halt: boolean
  readonly created_at: string
  readonly updated_at: string
}

/** Where one subscriber is in an automation. */
interface AutomationSubscriber {
  readonly subscriber_uuid: string | null
  readonly action_uuid: string | null
  readonly state: "active" | "completed" | "halted"
  readonly entered_at: string
  readonly next_run_at: string | null
}

const TRIGGER_TYPES: ReadonlyArray<readonly [string, string]> = [
  ["subscribed", "Someone subscribes to the list"],
  ["tag_added", "A tag is added to a subscriber"],
  ["tag_removed", "A tag is removed from a subscriber"],
  ["date", "A date and time (every member then)"],
  ["attribute_date", "A date in each subscriber's attributes"],
  ["webhook", "Called through the API"],
  ["none", "Nothing (no enrolment)"]
]

const DEFINITION_HINT =
  "Triggers: subscribed, tag_added {tag}, tag_removed {tag}, date {at, repeat}, attribute_date {attribute, offset_days, yearly}, webhook, none. " +
  "Steps: send_mail {automation_mail_uuid}, wait {length, unit}, condition {condition, window, yes, no}, split {left, right}, add_tags or remove_tags {tags}, " +
  "unsubscribe, halt, webhook {url, secret}, subscribe_to_list {email_list_uuid, tags}. Keep each step's uuid: subscribers on it stay there; those on a removed step are halted."

const BRANCHES = ["yes", "no", "left", "right"]

const COUNT_KEYS = ["active", "completed", "halted"]

const pad = (n: number) => String(n).padStart(2, "0")

/** A local date-time input value as the API's UTC `Y-m-d H:i:s`. */
const toApiTime = (local: string): string => {
  const date = new Date(local)
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:00`
}

/** A trigger in words. */
const triggerText = (trigger: Trigger | null, listName: string, uuid = "{uuid}"): string => {
  if (trigger === null) return "No trigger yet"
  switch (trigger.type) {
    case "subscribed":
      return `When someone subscribes to ${listName}`
    case "tag_added":
      return `When the tag ${trigger.tag} is added`
    case "tag_removed":
      return `When the tag ${trigger.tag} is removed`
    case "date":
      return `On ${trigger.at} UTC${trigger.repeat && trigger.repeat !== "none" ? `, repeated ${trigger.repeat}` : ""}, every member of ${listName}`
    case "attribute_date": {
      const offset = trigger.offset_days ?? 0
      const shift = offset === 0 ? "" : offset > 0 ? ` + ${offset} days` : ` − ${-offset} days`
      return `On each subscriber's ${trigger.attribute}${shift}${trigger.yearly ? ", every year" : ""}`
    }
    case "webhook":
      return `When called through POST /api/automations/${uuid}/trigger`
    case "none":
      return "No trigger: nobody enters by themselves"
    default:
      return trigger.type
  }
}

const duration = (length: unknown, unit: unknown): string => {
  const text = String(unit)
  return `${String(length)} ${length === 1 && text.endsWith("s") ? text.slice(0, -1) : text}`
}

const tagsText = (tags: unknown): string => (Array.isArray(tags) ? tags.join(", ") : "")

/** Names of mails and lists for the flow. */
interface Names {
  readonly mail: (uuid: unknown) => ComponentChildren
  readonly list: (uuid: unknown) => string
}

const conditionText = (condition: Record<string, unknown>, names: Names): ComponentChildren => {
  switch (condition.type) {
    case "has_tag":
      return <>If has tag {String(condition.tag)}</>
    case "opened":
      return <>If opened {names.mail(condition.automation_mail_uuid)}</>
    case "clicked":
      return (
        <>
          If clicked {condition.url ? <span class="url">{String(condition.url)}</span> : "a link"} in {names.mail(condition.automation_mail_uuid)}
        </>
      )
    case "attribute":
      return (
        <>
          If {String(condition.attribute)} {condition.comparison === "empty" ? "is empty" : condition.comparison === "not_empty" ? "is not empty" : `${String(condition.comparison)} ${String(condition.value ?? "")}`}
        </>
      )
    default:
      return <>If {String(condition.type)}</>
  }
}

/** An action in words: "Send mail: Welcome", "Wait 2 days", "If has tag vip". */
const actionText = (action: Action, names: Names): ComponentChildren => {
  switch (action.type) {
    case "send_mail":
      return <>Send mail: {names.mail(action.automation_mail_uuid)}</>
    case "wait":
      return <>Wait {duration(action.length, action.unit)}</>
    case "condition": {
      const window = action.window as { length: number; unit: string } | undefined
      return (
        <>
          {conditionText(action.condition as Record<string, unknown>, names)}
          {window && <span class="muted"> (checked for {duration(window.length, window.unit)})</span>}
        </>
      )
    }
    case "split":
      return <>Split: both branches run</>
    case "add_tags":
      return <>Add tags: {tagsText(action.tags)}</>
    case "remove_tags":
      return <>Remove tags: {tagsText(action.tags)}</>
    case "unsubscribe":
      return <>Unsubscribe from the list</>
    case "halt":
      return <>Halt</>
    case "webhook":
      return (
        <>
          Post to webhook <span class="url">{String(action.url)}</span>
        </>
      )
    case "subscribe_to_list": {
      const tags = tagsText(action.tags)
      return (
        <>
          Subscribe to list {names.list(action.email_list_uuid)}
          {tags && ` with tags ${tags}`}
        </>
      )
    }
    default:
      return <>{action.type}</>
  }
}

const findAction = (actions: ReadonlyArray<Action>, uuid: string): Action | undefined => {
  for (const action of actions) {
    if (action.uuid === uuid) return action
    for (const branch of BRANCHES) {
      const found = Array.isArray(action[branch]) ? findAction(action[branch] as ReadonlyArray<Action>, uuid) : undefined
      if (found) return found
    }
  }
  return undefined
}

/** The actions as the write body takes them: without the live counts (refused as unknown), uuids kept. */
const writableActions = (actions: ReadonlyArray<Action>): ReadonlyArray<Record<string, unknown>> =>
  actions.map((action) =>
    Object.fromEntries(
      Object.entries(action)
        .filter(([key]) => !COUNT_KEYS.includes(key))
        .map(([key, value]) => [key, BRANCHES.includes(key) && Array.isArray(value) ? writableActions(value as ReadonlyArray<Action>) : value])
    )
  )

const definitionText = (automation: Automation): string =>
  JSON.stringify({ trigger: automation.trigger, actions: writableActions(automation.actions) }, null, 2)

const useNames = () => {
  const mails = useApi<Collection<AutomationMail>>("/automation-mails?per_page=100")
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100&sort=name")
  const names: Names = {
    mail: (uuid) => {
      const found = mails.data?.data.find((mail) => mail.uuid === uuid)
      return found ? <Link href={`/automation-mails/${found.uuid}`}>{found.name}</Link> : <span class="error-text">unknown mail {String(uuid)}</span>
    },
    list: (uuid) => lists.data?.data.find((list) => list.uuid === uuid)?.name ?? (uuid ? String(uuid) : "no list")
  }
  return { names, mails: mails.data?.data, lists: lists.data?.data, error: mails.error ?? lists.error }
}

/** Automations: their state and list, filters by name and state, and a form to create one. */
export const Automations = () => {
  const params = useSearchParams()
  const search = params.get("search") ?? ""
  const status = params.get("status") ?? ""
  const automations = useApi<Collection<Automation>>(`/automations${query({ page: params.get("page"), "filter[search]": search, "filter[status]": status })}`, 10_000)
  const { names, lists, error } = useNames()
  const canWrite = useCan("write")
  return (
    <Page title="Automations">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search <input type="search" value={search} onInput={(event) => setSearchParams({ search: event.currentTarget.value, page: null })} />
        </label>
        <label>
          Status{" "}
          <select value={status} onChange={(event) => setSearchParams({ status: event.currentTarget.value, page: null })}>
            <option value="">all</option>
            <option value="started">started</option>
            <option value="paused">paused</option>
          </select>
        </label>
      </form>
      <ErrorMessage error={automations.error ?? error} />
      <DataTable
        caption="Automations"
        rows={automations.data?.data}
        rowKey={(automation) => automation.uuid}
        empty={search || status ? "No automation matches." : "No automations yet: create the first one below."}
        columns={[
          { title: "Name", cell: (a) => <Link href={`/automations/${a.uuid}`}>{a.name}</Link> },
          { title: "Status", cell: (a) => <Badge value={a.status} /> },
          { title: "List", cell: (a) => (a.email_list_uuid ? <Link href={`/lists/${a.email_list_uuid}`}>{names.list(a.email_list_uuid)}</Link> : "–") },
          { title: "Trigger", wide: true, cell: (a) => triggerText(a.trigger, names.list(a.email_list_uuid)) },
          { title: "Steps", numeric: true, wide: true, cell: (a) => formatNumber(a.actions.length) },
          { title: "Created", wide: true, cell: (a) => formatDate(a.created_at) }
        ]}
      />
      <Pager meta={automations.data?.meta} onPage={(page) => setSearchParams({ page })} />
      {canWrite && <NewAutomation lists={lists} />}
    </Page>
  )
}

const NewAutomation = ({ lists }: { lists: ReadonlyArray<EmailList> | undefined }) => {
  const [name, setName] = useState("")
  const [list, setList] = useState("")
  const [type, setType] = useState("subscribed")
  const [tag, setTag] = useState("")
  const [at, setAt] = useState("")
  const [repeat, setRepeat] = useState("none")
  const [attribute, setAttribute] = useState("")
  const action = useAction()
  const chosenList = list || lists?.[0]?.uuid || ""
  const trigger =
    type === "tag_added" || type === "tag_removed"
      ? { type, tag }
      : type === "date"
      ? { type, at: at === "" ? "" : toApiTime(at), repeat }
      : type === "attribute_date"
      ? { type, attribute, yearly: true }
      : { type }
  const submit = async (event: Event) => {
    event.preventDefault()
    let created: { data: Automation } | undefined
    const ok = await action.run(async () => {
      created = await api.post<{ data: Automation }>("/automations", { name, email_list_uuid: chosenList || null, trigger, actions: [] })
    })
    if (ok && created) navigate(`/automations/${created.data.uuid}`)
  }
  return (
    <Panel title="New automation">
      {lists?.length === 0 && (
        <p class="notice">
          An automation enrols the members of an email list: <Link href="/lists">create a list</Link> first.
        </p>
      )}
      <form class="grid-form" onSubmit={submit}>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.error} required />
        <SelectField label="Email list" name="email_list_uuid" value={chosenList} onValue={setList} error={action.error} options={(lists ?? []).map((l) => [l.uuid, l.name] as const)} />
        <SelectField label="Starts when" name="trigger.type" value={type} onValue={setType} error={action.error} options={TRIGGER_TYPES} />
        {(type === "tag_added" || type === "tag_removed") && <TextField label="Tag" name="trigger.tag" value={tag} onValue={setTag} error={action.error} required />}
        {type === "date" && (
          <>
            <TextField label="At (your time)" name="trigger.at" type="datetime-local" value={at} onValue={setAt} error={action.error} required />
            <SelectField label="Repeat" name="trigger.repeat" value={repeat} onValue={setRepeat} error={action.error} options={[["none", "Once"], ["daily", "Daily"], ["monthly", "Monthly"], ["yearly", "Yearly"]]} />
          </>
        )}
        {type === "attribute_date" && (
          <TextField label="Attribute holding the date" name="trigger.attribute" value={attribute} onValue={setAttribute} error={action.error} required hint="An extra attribute such as birthday (YYYY-MM-DD); every year. Change the offset in the definition." />
        )}
        <FormError error={action.error} fields={["name", "email_list_uuid", "trigger.type", "trigger.tag", "trigger.at", "trigger.repeat", "trigger.attribute"]} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Create automation
          </button>
          <span class="muted">Its steps are added on the next screen; it starts paused.</span>
        </div>
      </form>
    </Panel>
  )
}

/** One automation: its flow with live counts on each step, start and pause, its definition, and who is where. */
export const AutomationDetail = ({ automation }: { automation: string }) => {
  const loaded = useApi<{ data: Automation }>(`/automations/${automation}`, 5000)
  const { names, mails, lists, error } = useNames()
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
          <Panel title="Flow">
            <p class="muted">Live counts on each step: refreshed every 5 seconds.</p>
            <div class="flow-wrap">
              <ol class="flow" aria-label="Trigger and steps">
                <li>
                  <div class="flow-node trigger">
                    <strong>Trigger:</strong> {triggerText(data.trigger, names.list(data.email_list_uuid), data.uuid)}
                  </div>
                </li>
                {data.actions.length === 0 ? (
                  <li>
                    <p class="muted">No steps yet: add them in the definition below.</p>
                  </li>
                ) : (
                  data.actions.map((step) => <FlowStep key={step.uuid} action={step} names={names} />)
                )}
              </ol>
            </div>
          </Panel>
          {canWrite && <Definition key={data.uuid} automation={data} mails={mails} lists={lists} onSaved={loaded.reload} />}
          <Positions automation={data} names={names} />
        </>
      )}
    </Page>
  )
}

const SegmentName = ({ list, segment }: { list: string | null; segment: string }) => {
  const segments = useApi<Collection<Segment>>(list ? `/email-lists/${list}/segments?per_page=100` : null)
  return <>{segments.data?.data.find((s) => s.uuid === segment)?.name ?? segment}</>
}

const FlowStep = ({ action, names }: { action: Action; names: Names }) => {
  const branches: ReadonlyArray<readonly [string, string]> =
    action.type === "condition" ? [["yes", "Yes"], ["no", "No"]] : action.type === "split" ? [["left", "Left"], ["right", "Right"]] : []
  return (
    <li>
      <div class="flow-node">
        <div>{actionText(action, names)}</div>
        <div class="flow-counts">
          {formatNumber(action.active)} active · {formatNumber(action.completed)} completed · {formatNumber(action.halted)} halted
        </div>
      </div>
      {branches.length > 0 && (
        <div class="flow-branches">
          {branches.map(([key, label]) => {
            const steps = (Array.isArray(action[key]) ? action[key] : []) as ReadonlyArray<Action>
            return (
              <div key={key} class="flow-branch">
                <h3>{label}</h3>
                {steps.length === 0 ? (
                  <p class="muted">No steps.</p>
                ) : (
                  <ol class="flow" aria-label={`${label} branch`}>
                    {steps.map((step) => (
                      <FlowStep key={step.uuid} action={step} names={names} />
                    ))}
                  </ol>
                )}
              </div>
            )
          })}
        </div>
      )}
    </li>
  )
}

const Definition = ({ automation, mails, lists, onSaved }: {
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
  const [saved, setSaved] = useState(false)
  const segments = useApi<Collection<Segment>>(list ? `/email-lists/${list}/segments?per_page=100` : null)
  const action = useAction()
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
    setSaved(false)
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
      setSaved(true)
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
            setSaved(false)
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
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Save
          </button>
          {saved && <span role="status">Saved.</span>}
          {automation.status === "started" && <span class="muted">It is started: changes apply to the next step of each subscriber.</span>}
        </div>
      </form>
    </Panel>
  )
}

const SubscriberEmail = ({ uuid }: { uuid: string }) => {
  const subscriber = useApi<{ data: Subscriber }>(`/subscribers/${uuid}`)
  return <Link href={`/subscribers/${uuid}`}>{subscriber.data?.data.email ?? (subscriber.error ? "deleted subscriber" : "…")}</Link>
}

const Positions = ({ automation, names }: { automation: Automation; names: Names }) => {
  const params = useSearchParams()
  const state = params.get("state") ?? ""
  const positions = useApi<Collection<AutomationSubscriber>>(`/automations/${automation.uuid}/subscribers${query({ page: params.get("page"), "filter[state]": state })}`, 10_000)
  const step = (uuid: string | null) => {
    const found = uuid === null ? undefined : findAction(automation.actions, uuid)
    return found ? actionText(found, names) : "–"
  }
  return (
    <Panel title="Subscribers">
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          State{" "}
          <select value={state} onChange={(event) => setSearchParams({ state: event.currentTarget.value, page: null })}>
            <option value="">all</option>
            <option value="active">active</option>
            <option value="completed">completed</option>
            <option value="halted">halted</option>
          </select>
        </label>
      </form>
      <ErrorMessage error={positions.error} />
      <DataTable
        caption="Where each subscriber is in this automation"
        rows={positions.data?.data}
        rowKey={(row) => `${row.subscriber_uuid ?? "deleted"}-${row.entered_at}`}
        empty={state ? "Nobody is in this state." : "Nobody has entered this automation yet."}
        columns={[
          { title: "Subscriber", cell: (row) => (row.subscriber_uuid ? <SubscriberEmail uuid={row.subscriber_uuid} /> : "deleted subscriber") },
          { title: "State", cell: (row) => <Badge value={row.state} /> },
          { title: "Step", cell: (row) => step(row.action_uuid) },
          { title: "Entered", wide: true, cell: (row) => formatDate(row.entered_at) },
          { title: "Next step", wide: true, cell: (row) => formatDate(row.next_run_at) }
        ]}
      />
      <Pager meta={positions.data?.meta} onPage={(page) => setSearchParams({ page })} />
    </Panel>
  )
}
