import type { AutomationAction } from "./AutomationAction.js"

/** An action with its uuid given. */
export type PlacedAction = AutomationAction & { readonly uuid: string }

/** Where an action sits: its path (`actions.2.yes.0`), and the uuid that follows it when it is done (null: the end). */
export interface TreeNode {
  readonly action: PlacedAction
  readonly path: string
  readonly after: string | null
}

/** The actions of a branch, each with its path. */
const branches = (action: AutomationAction, path: string): ReadonlyArray<readonly [ReadonlyArray<AutomationAction>, string]> =>
  action.type === "condition"
    ? [[action.yes, `${path}.yes`], [action.no, `${path}.no`]]
    : action.type === "split"
    ? [[action.left, `${path}.left`], [action.right, `${path}.right`]]
    : []

/** Visits every action, depth first in document order, with its path. */
export const walkActions = (
  actions: ReadonlyArray<AutomationAction>,
  visit: (action: AutomationAction, path: string) => void,
  prefix = "actions"
): void =>
  actions.forEach((action, index) => {
    const path = `${prefix}.${index}`
    visit(action, path)
    for (const [list, at] of branches(action, path)) walkActions(list, visit, at)
  })

/** The actions with a fresh uuid (from `make`) on each action that has none. */
export const withUuids = (actions: ReadonlyArray<AutomationAction>, make: () => string): ReadonlyArray<PlacedAction> =>
  actions.map((action): PlacedAction => {
    const uuid = action.uuid ?? make()
    if (action.type === "condition") return { ...action, uuid, yes: withUuids(action.yes, make), no: withUuids(action.no, make) }
    if (action.type === "split") return { ...action, uuid, left: withUuids(action.left, make), right: withUuids(action.right, make) }
    return { ...action, uuid }
  })

/** The structural mistakes of a tree, by path: a uuid used twice, a split followed by more actions. */
export const treeProblems = (actions: ReadonlyArray<AutomationAction>): Record<string, Array<string>> => {
  const problems: Record<string, Array<string>> = {}
  const seen = new Set<string>()
  const check = (list: ReadonlyArray<AutomationAction>, prefix: string) =>
    list.forEach((action, index) => {
      const path = `${prefix}.${index}`
      if (action.uuid !== undefined) {
        if (seen.has(action.uuid)) (problems[`${path}.uuid`] ??= []).push("The uuid is used by another action.")
        seen.add(action.uuid)
      }
      if (action.type === "split" && index < list.length - 1) {
        ;(problems[path] ??= []).push("A split must be the last action of its branch: both of its branches run to their ends.")
      }
      for (const [branch, at] of branches(action, path)) check(branch, at)
    })
  check(actions, "actions")
  return problems
}

/** The first action of a branch, or `after` when the branch is empty. */
export const firstOf = (actions: ReadonlyArray<PlacedAction>, after: string | null): string | null => actions[0]?.uuid ?? after

/** Every action of the tree by uuid, with its path and what follows it. */
export const indexTree = (actions: ReadonlyArray<PlacedAction>): ReadonlyMap<string, TreeNode> => {
  const nodes = new Map<string, TreeNode>()
  const visit = (list: ReadonlyArray<PlacedAction>, prefix: string, after: string | null) =>
    list.forEach((action, index) => {
      const path = `${prefix}.${index}`
      const next = list[index + 1]?.uuid ?? after
      nodes.set(action.uuid, { action, path, after: next })
      if (action.type === "condition") {
        visit(action.yes as ReadonlyArray<PlacedAction>, `${path}.yes`, next)
        visit(action.no as ReadonlyArray<PlacedAction>, `${path}.no`, next)
      } else if (action.type === "split") {
        visit(action.left as ReadonlyArray<PlacedAction>, `${path}.left`, null)
        visit(action.right as ReadonlyArray<PlacedAction>, `${path}.right`, null)
      }
    })
  visit(actions, "actions", null)
  return nodes
}
