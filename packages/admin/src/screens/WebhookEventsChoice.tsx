import type { ApiError } from "../api/client"
import { CheckField, fieldErrors } from "../components/Field"
import { EVENT_TYPES, isAll } from "./webhookTypes"

/** The events a webhook gets: all of them, or those checked. */
export const WebhookEventsChoice = ({ events, onEvents, error }: { events: ReadonlyArray<string>; onEvents: (events: string[]) => void; error: ApiError | undefined }) => {
  const all = isAll(events)
  const messages = fieldErrors(error, "events")
  return (
    <fieldset class="webhook-events">
      <legend>Events</legend>
      <CheckField label="All events, including kinds added later" name="events_all" checked={all} onChecked={(checked) => onEvents(checked ? ["*"] : [])} />
      {!all && (
        <div class="webhook-event-list">
          {EVENT_TYPES.map((type) => (
            <CheckField
              key={type}
              label={type}
              name="events"
              checked={events.includes(type)}
              onChecked={(checked) => onEvents(checked ? [...events, type] : events.filter((event) => event !== type))}
            />
          ))}
        </div>
      )}
      {messages.length > 0 && <p class="field-error error-text">{messages.join(" ")}</p>}
    </fieldset>
  )
}
