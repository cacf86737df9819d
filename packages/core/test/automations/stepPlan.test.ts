import { describe, expect, it } from "@effect/vitest"
import { indexTree, treeProblems, withUuids } from "../../src/automations/actionTree.js"
import type { AutomationAction } from "../../src/automations/AutomationAction.js"
import type { ClaimedRun, SubscriberFacts } from "../../src/automations/AutomationRunRepository.js"
import { compareAttribute } from "../../src/automations/conditionMet.js"
import { planStep, type StepInput } from "../../src/automations/stepPlan.js"

let counter = 0
const tree = (actions: ReadonlyArray<AutomationAction>) => {
  const placed = withUuids(actions, () => `a${++counter}`)
  return { placed, index: indexTree(placed) }
}

const facts: SubscriberFacts = {
  id: 7 as never,
  uuid: "s-7",
  email: "ann@example.com",
  emailListId: 1 as never,
  subscribed: true,
  extraAttributes: { plan: "pro", seats: 12 },
  tagIds: [3],
  tagNames: ["VIP"]
}
const now = new Date("2026-11-26T12:00:00Z")
const run = (actionUuid: string, arrivedAt = now): ClaimedRun => ({
  id: 11 as never,
  runId: 11,
  automationId: 1 as never,
  subscriberId: 7 as never,
  actionUuid,
  enteredAt: new Date("2026-11-20T00:00:00Z"),
  arrivedAt
})
const input = (index: StepInput["tree"], at: ClaimedRun, extra: Partial<StepInput> = {}): StepInput => ({
  run: at,
  tree: index,
  facts,
  leftBecause: null,
  engaged: null,
  webhookPosted: false,
  now,
  ...extra
})

describe("planStep", () => {
  it("goes through instant actions in one step and stops at a wait, due when the wait ends", () => {
    const { index, placed } = tree([
      { type: "send_mail", automation_mail_uuid: "m1" },
      { type: "add_tags", tags: ["welcomed"] },
      { type: "wait", length: 1, unit: "days" },
      { type: "send_mail", automation_mail_uuid: "m2" }
    ])
    const plan = planStep(input(index, run(placed[0]!.uuid)))
    expect(plan.effects.map((e) => e._tag)).toEqual(["SendMail", "AddTags"])
    expect(plan.passed).toEqual([placed[0]!.uuid, placed[1]!.uuid])
    expect(plan.change).toEqual({ _tag: "Move", id: 11, actionUuid: placed[2]!.uuid, nextRunAt: new Date("2026-11-27T12:00:00Z") })
  })

  it("passes a wait that has ended and completes at the end of the actions", () => {
    const { index, placed } = tree([{ type: "wait", length: 1, unit: "hours" }, { type: "send_mail", automation_mail_uuid: "m1" }])
    const plan = planStep(input(index, run(placed[0]!.uuid, new Date("2026-11-26T10:00:00Z"))))
    expect(plan.change._tag).toBe("Complete")
    expect(plan.effects).toHaveLength(1)
  })

  it("halts a subscriber who left the audience, or whose action was removed, without doing anything", () => {
    const { index, placed } = tree([{ type: "send_mail", automation_mail_uuid: "m1" }])
    const left = planStep(input(index, run(placed[0]!.uuid), { leftBecause: "The subscriber unsubscribed." }))
    expect(left.change).toMatchObject({ _tag: "Halt", reason: "The subscriber unsubscribed." })
    expect(left.effects).toEqual([])
    expect(planStep(input(index, run("gone"))).change).toMatchObject({ _tag: "Halt", actionUuid: "gone" })
  })

  it("takes the yes branch of a met condition, waits while its window is open, then takes the no branch", () => {
    const { index, placed } = tree([
      {
        type: "condition",
        condition: { type: "opened", automation_mail_uuid: "m1" },
        window: { length: 2, unit: "days" },
        yes: [{ type: "add_tags", tags: ["engaged"] }],
        no: [{ type: "send_mail", automation_mail_uuid: "m2" }]
      },
      { type: "halt" }
    ])
    const condition = placed[0]!
    const yes = planStep(input(index, run(condition.uuid), { engaged: true }))
    expect(yes.effects.map((e) => e._tag)).toEqual(["AddTags"])
    expect(yes.change).toMatchObject({ _tag: "Halt", actionUuid: placed[1]!.uuid })
    const open = planStep(input(index, run(condition.uuid), { engaged: false }))
    expect(open.change).toEqual({ _tag: "Recheck", id: 11, nextRunAt: new Date("2026-11-26T12:15:00Z") })
    const closed = planStep(input(index, run(condition.uuid, new Date("2026-11-24T11:00:00Z")), { engaged: false }))
    expect(closed.effects.map((e) => e._tag)).toEqual(["SendMail"])
  })

  it("forks a split: the right branch as a new position of the same run, the left one goes on", () => {
    const { index, placed } = tree([
      { type: "split", left: [{ type: "add_tags", tags: ["left"] }], right: [{ type: "add_tags", tags: ["right"] }] }
    ])
    const split = placed[0]!
    const plan = planStep(input(index, run(split.uuid)))
    expect(plan.forks).toHaveLength(1)
    expect(plan.forks[0]).toMatchObject({ runId: 11, actionUuid: split.type === "split" ? split.right[0]!.uuid : "" })
    expect(plan.change._tag).toBe("Complete")
  })

  it("stops before a webhook until it was posted, and halts the actions after an unsubscribe", () => {
    const { index, placed } = tree([
      { type: "webhook", url: "https://example.com/hook", secret: "whsec_x" },
      { type: "unsubscribe" },
      { type: "send_mail", automation_mail_uuid: "m1" }
    ])
    expect(planStep(input(index, run(placed[0]!.uuid))).change).toMatchObject({ _tag: "Recheck" })
    const posted = planStep(input(index, run(placed[0]!.uuid), { webhookPosted: true }))
    expect(posted.effects.map((e) => e._tag)).toEqual(["Unsubscribe"])
    expect(posted.change).toMatchObject({ _tag: "Halt", actionUuid: placed[2]!.uuid, reason: "The subscriber unsubscribed." })
  })

  it("checks has_tag and attribute conditions on the subscriber", () => {
    const { index, placed } = tree([
      {
        type: "condition",
        condition: { type: "has_tag", tag: "vip" },
        window: { length: 1, unit: "minutes" },
        yes: [{ type: "add_tags", tags: ["yes"] }],
        no: []
      }
    ])
    expect(planStep(input(index, run(placed[0]!.uuid))).effects).toHaveLength(1)
    expect(compareAttribute(12, ">=", "10")).toBe(true)
    expect(compareAttribute("pro", "=", "pro")).toBe(true)
    expect(compareAttribute("2026-01-02", "<", "2026-01-10")).toBe(true)
    expect(compareAttribute(undefined, "empty", null)).toBe(true)
    expect(compareAttribute("", "not_empty", null)).toBe(false)
  })
})

describe("treeProblems", () => {
  it("names the path of a split followed by more actions and of a uuid used twice", () => {
    const problems = treeProblems([
      { type: "condition", condition: { type: "has_tag", tag: "x" }, window: { length: 1, unit: "days" }, yes: [
        { type: "split", left: [], right: [] },
        { type: "halt", uuid: "u1" }
      ], no: [] },
      { type: "halt", uuid: "u1" }
    ])
    expect(Object.keys(problems).sort()).toEqual(["actions.0.yes.0", "actions.1.uuid"])
  })
})
