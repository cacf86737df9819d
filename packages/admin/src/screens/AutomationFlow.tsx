import { Panel } from "../components/Page"
import { formatNumber } from "../format"
import { actionText, type Names, triggerText } from "./automationText"
import type { Automation, AutomationAction } from "./automationTypes"

/** The flow of an automation: its trigger, then its steps and branches, each with its live counts. */
export const AutomationFlow = ({ automation, names }: { automation: Automation; names: Names }) => (
  <Panel title="Flow">
    <p class="muted">Live counts on each step: refreshed every 5 seconds.</p>
    <div class="flow-wrap">
      <ol class="flow" aria-label="Trigger and steps">
        <li>
          <div class="flow-node trigger">
            <strong>Trigger:</strong> {triggerText(automation.trigger, names.list(automation.email_list_uuid), automation.uuid)}
          </div>
        </li>
        {automation.actions.length === 0 ? (
          <li>
            <p class="muted">No steps yet: add them in the definition below.</p>
          </li>
        ) : (
          automation.actions.map((step) => <FlowStep key={step.uuid} action={step} names={names} />)
        )}
      </ol>
    </div>
  </Panel>
)

/** One step with its counts, and its branches' steps under it. */
const FlowStep = ({ action, names }: { action: AutomationAction; names: Names }) => {
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
            const steps = (Array.isArray(action[key]) ? action[key] : []) as ReadonlyArray<AutomationAction>
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
