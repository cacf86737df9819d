import { Effect, Option } from "effect"
import { type ActionCounts, Automation } from "../../automations/Automation.js"
import type { AutomationId } from "../../automations/AutomationIds.js"
import { AutomationRepository } from "../../automations/AutomationRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** AutomationRepository over the in-memory state; counts come from the positions and the passes table. */
export const makeMemoryAutomationRepository = (state: MemoryState) => {
  const rows = () => state.tables.automations
  const find = (predicate: (row: Automation) => boolean) => Effect.sync(() => Option.fromNullable([...rows().values()].find(predicate)))
  const deleteWhere = <R>(table: Map<number, R>, predicate: (row: R) => boolean) => {
    for (const [key, row] of table) if (predicate(row)) table.delete(key)
  }

  return AutomationRepository.of({
    insert: (automation) =>
      Effect.sync(() => {
        const row = new Automation({ ...automation, id: state.nextId("automations") as AutomationId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = new Automation({ ...existing, ...changes })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => find((row) => row.id === id),
    findByUuid: (uuid) => find((row) => row.uuid === uuid),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (row) => row.id,
          sorts: { name: (row) => row.name, created_at: (row) => row.createdAt },
          filters: {
            search: (row, value) => containsIgnoringCase(row.name, value),
            status: (row, value) => row.status === value.trim()
          }
        })
      ),
    delete: (id) =>
      Effect.sync(() => {
        deleteWhere(state.tables.automationRuns, (run) => run.automationId === id)
        deleteWhere(state.tables.automationActionCounts, (count) => count.automationId === id)
        return rows().delete(id)
      }),
    started: Effect.sync(() => [...rows().values()].filter((row) => row.status === "started").sort((a, b) => a.id - b.id)),
    actionCounts: (id) =>
      Effect.sync(() => {
        const counts = new Map<string, { active: number; completed: number; halted: number }>()
        const entry = (uuid: string) => {
          const found = counts.get(uuid) ?? { active: 0, completed: 0, halted: 0 }
          counts.set(uuid, found)
          return found
        }
        for (const run of state.tables.automationRuns.values()) {
          if (run.automationId === id && run.state !== "completed") entry(run.actionUuid)[run.state]++
        }
        for (const count of state.tables.automationActionCounts.values()) {
          if (count.automationId === id) entry(count.actionUuid).completed = count.completed
        }
        return counts as ReadonlyMap<string, ActionCounts>
      }),
    countPasses: (id, passes) =>
      Effect.sync(() => {
        const table = state.tables.automationActionCounts
        for (const [actionUuid, passed] of passes) {
          const found = [...table].find(([, count]) => count.automationId === id && count.actionUuid === actionUuid)
          if (found === undefined) table.set(state.nextId("automationActionCounts"), { automationId: id, actionUuid, completed: passed })
          else table.set(found[0], { ...found[1], completed: found[1].completed + passed })
        }
      })
  })
}
