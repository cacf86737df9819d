import { Effect, Option } from "effect"
import type { TemplateId } from "../../domain/Ids.js"
import { Template } from "../../domain/Template.js"
import { TemplateRepository } from "../../ports/TemplateRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** TemplateRepository over the in-memory state. */
export const makeMemoryTemplateRepository = (state: MemoryState) => {
  const rows = () => state.tables.templates
  const findBy = (predicate: (t: Template) => boolean) =>
    Effect.sync(() => Option.fromNullable([...rows().values()].find(predicate)))
  return TemplateRepository.of({
    insert: (template) =>
      Effect.sync(() => {
        const row = new Template({ ...template, id: state.nextId("templates") as TemplateId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = new Template({ ...existing, ...changes })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByUuid: (uuid) => findBy((t) => t.uuid === uuid),
    delete: (id) => Effect.sync(() => rows().delete(id)),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (t) => t.id,
          sorts: { name: (t) => t.name, updated_at: (t) => t.updatedAt },
          filters: { search: (t, value) => containsIgnoringCase(t.name, value) }
        })
      )
  })
}
