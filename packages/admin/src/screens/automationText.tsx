import type { ComponentChildren } from "preact"
import type { AutomationAction, Trigger } from "./automationTypes"

/** A trigger in words. */
export const triggerText = (trigger: Trigger | null, listName: string, uuid = "{uuid}"): string => {
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

/** A length of time in words ("1 day", "3 days"). */
const duration = (length: unknown, unit: unknown): string => {
  const text = String(unit)
  return `${String(length)} ${length === 1 && text.endsWith("s") ? text.slice(0, -1) : text}`
}

/** A list of tags, comma-separated. */
const tagsText = (tags: unknown): string => (Array.isArray(tags) ? tags.join(", ") : "")

/** Names of mails and lists for the flow. */
export interface Names {
  readonly mail: (uuid: unknown) => ComponentChildren
  readonly list: (uuid: unknown) => string
}

/** A condition step's test in words. */
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
export const actionText = (action: AutomationAction, names: Names): ComponentChildren => {
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
