import type { SubscriberId } from "../domain/Ids.js"
import { type PlacedAction, firstOf, type TreeNode } from "./actionTree.js"
import type { ClaimedRun, ForkedRun, RunChange, SubscriberFacts } from "./AutomationRunRepository.js"
import { conditionMet } from "./conditionMet.js"
import { waitUntil } from "./waitUntil.js"

/** How often a condition whose window is still open is checked again. */
export const RECHECK_MILLIS = 15 * 60_000

/** A write a step makes beside moving its position (done in the step's transaction). */
export type StepEffect =
  | { readonly _tag: "SendMail"; readonly mailUuid: string; readonly runId: number; readonly subscriberId: SubscriberId; readonly email: string }
  | { readonly _tag: "AddTags" | "RemoveTags"; readonly subscriberId: SubscriberId; readonly tags: ReadonlyArray<string> }
  | { readonly _tag: "Unsubscribe"; readonly subscriberId: SubscriberId }
  | { readonly _tag: "SubscribeToList"; readonly subscriberId: SubscriberId; readonly emailListUuid: string; readonly tags: ReadonlyArray<string> }

/** What one claimed position does now: its new place, forks, writes, and the actions it passed. */
export interface StepPlan {
  readonly change: RunChange
  readonly forks: ReadonlyArray<ForkedRun>
  readonly effects: ReadonlyArray<StepEffect>
  readonly passed: ReadonlyArray<string>
}

/** Everything a step looks at, read before it is planned. */
export interface StepInput {
  readonly run: ClaimedRun
  readonly tree: ReadonlyMap<string, TreeNode>
  /** The subscriber, when it still exists. */
  readonly facts: SubscriberFacts | undefined
  /** Why the subscriber is no longer in the automation's audience, or null while it is. */
  readonly leftBecause: string | null
  /** The answer to the run's opened/clicked condition at its current action, when one was asked. */
  readonly engaged: boolean | null
  /** The webhook of the current action was posted (before this step). */
  readonly webhookPosted: boolean
  readonly now: Date
}

/** Most actions one step goes through before it leaves the rest for the next claim. */
const MAX_CHAIN = 100

/**
 * Plans one step of a position: from its action, goes through every action that completes at once (mails, tags, …)
 * until one must wait (a wait, a condition whose window is open, a webhook still to post) or the run ends. Pure.
 */
export const planStep = (input: StepInput): StepPlan => {
  const { run, tree, facts, now } = input
  const effects: Array<StepEffect> = []
  const forks: Array<ForkedRun> = []
  const passed: Array<string> = []
  let leftBecause = input.leftBecause
  let uuid: string | null = run.actionUuid
  let arrivedAt = run.arrivedAt
  const plan = (change: RunChange): StepPlan => ({ change, forks, effects, passed })
  const stay = (nextRunAt: Date): StepPlan =>
    plan(uuid === run.actionUuid && arrivedAt === run.arrivedAt
      ? { _tag: "Recheck", id: run.id, nextRunAt }
      : { _tag: "Move", id: run.id, actionUuid: uuid!, nextRunAt })
  for (let steps = 0; uuid !== null; steps++) {
    if (steps === MAX_CHAIN) return stay(now)
    const node = tree.get(uuid)
    if (node === undefined) return plan({ _tag: "Halt", id: run.id, actionUuid: uuid, reason: "Its action was removed from the automation." })
    if (leftBecause !== null || facts === undefined) {
      return plan({ _tag: "Halt", id: run.id, actionUuid: uuid, reason: facts === undefined ? "The subscriber was deleted." : leftBecause! })
    }
    const action: PlacedAction = node.action
    const first = steps === 0
    let next: string | null = node.after
    switch (action.type) {
      case "send_mail":
        effects.push({ _tag: "SendMail", mailUuid: action.automation_mail_uuid, runId: run.runId, subscriberId: facts.id, email: facts.email })
        break
      case "wait": {
        const due = waitUntil(arrivedAt, action)
        if (due.getTime() > now.getTime()) return stay(due)
        break
      }
      case "condition": {
        const needsAnswer = action.condition.type === "opened" || action.condition.type === "clicked"
        if (needsAnswer && !first) return stay(now)
        const met = conditionMet(action.condition, facts, input.engaged)
        const windowEnd = waitUntil(arrivedAt, action.window)
        if (met === true) next = firstOf(action.yes as ReadonlyArray<PlacedAction>, node.after)
        else if (now.getTime() >= windowEnd.getTime()) next = firstOf(action.no as ReadonlyArray<PlacedAction>, node.after)
        else return stay(new Date(Math.min(windowEnd.getTime(), now.getTime() + RECHECK_MILLIS)))
        break
      }
      case "split": {
        const right = firstOf(action.right as ReadonlyArray<PlacedAction>, null)
        if (right !== null) {
          forks.push({ automationId: run.automationId, runId: run.runId, subscriberId: run.subscriberId, enteredAt: run.enteredAt, actionUuid: right, nextRunAt: now })
        }
        next = firstOf(action.left as ReadonlyArray<PlacedAction>, null)
        break
      }
      case "add_tags":
        effects.push({ _tag: "AddTags", subscriberId: facts.id, tags: action.tags })
        break
      case "remove_tags":
        effects.push({ _tag: "RemoveTags", subscriberId: facts.id, tags: action.tags })
        break
      case "unsubscribe":
        effects.push({ _tag: "Unsubscribe", subscriberId: facts.id })
        leftBecause = "The subscriber unsubscribed."
        break
      case "subscribe_to_list":
        effects.push({ _tag: "SubscribeToList", subscriberId: facts.id, emailListUuid: action.email_list_uuid, tags: action.tags })
        break
      case "halt":
        return plan({ _tag: "Halt", id: run.id, actionUuid: uuid, reason: "A halt action ended the run." })
      case "webhook":
        if (!(first && input.webhookPosted)) return stay(now)
        break
    }
    passed.push(action.uuid)
    if (next === null) return plan({ _tag: "Complete", id: run.id })
    uuid = next
    arrivedAt = now
  }
  return plan({ _tag: "Complete", id: run.id })
}
