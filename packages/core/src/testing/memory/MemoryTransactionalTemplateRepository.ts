import { Effect, Option } from "effect"
import type { TransactionalTemplateId } from "../../transactional/TransactionalIds.js"
import { TransactionalTemplate, type TransactionalTemplateStatistics } from "../../transactional/TransactionalTemplate.js"
import { TransactionalTemplateRepository } from "../../transactional/TransactionalTemplateRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** TransactionalTemplateRepository over the in-memory state. */
export const makeMemoryTransactionalTemplateRepository = (state: MemoryState) => {
  const rows = () => state.tables.transactionalTemplates
  const statistics = (id: number): TransactionalTemplateStatistics => {
    const mailIds = new Set([...state.tables.transactionalMails.values()].filter((m) => m.templateId === id).map((m) => m.id))
    const sends = [...state.tables.sends.values()].map((r) => r.send).filter((s) => s.transactionalMailId !== null && mailIds.has(s.transactionalMailId))
    const sendIds = new Set<number>(sends.map((s) => s.id))
    return {
      sentCount: sends.filter((s) => s.sentAt !== null).length,
      openCount: sends.reduce((sum, s) => sum + s.openCount, 0),
      uniqueOpenCount: sends.filter((s) => s.openCount > 0).length,
      clickCount: sends.reduce((sum, s) => sum + s.clickCount, 0),
      uniqueClickCount: sends.filter((s) => s.clickCount > 0).length,
      bounceCount: new Set([...state.tables.bounces.values()].flatMap((b) => (b.sendId !== null && sendIds.has(b.sendId) ? [b.sendId] : []))).size
    }
  }
  return TransactionalTemplateRepository.of({
    insert: (template) =>
      Effect.sync(() => {
        const row = new TransactionalTemplate({ ...template, id: state.nextId("transactionalTemplates") as TransactionalTemplateId })
        rows().set(row.id, row)
        return row
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        // only the writable fields, whatever else the object carries (as the SQL stores do)
        const { createdAt: _c, id: _i, uuid: _u, ...writable } = changes as Partial<TransactionalTemplate>
        const row = new TransactionalTemplate({ ...existing, ...writable })
        rows().set(id, row)
        return Option.some(row)
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((t) => t.uuid === uuid))),
    findByName: (name) =>
      Effect.sync(() => Option.fromNullable([...rows().values()].find((t) => t.name.toLowerCase() === name.toLowerCase()))),
    delete: (id) => Effect.sync(() => rows().delete(id)),
    list: (query) =>
      Effect.sync(() => {
        const page = listPage(rows().values(), query, {
          id: (t) => t.id,
          sorts: { name: (t) => t.name, created_at: (t) => t.createdAt, subject: (t) => t.subject },
          filters: {
            search: (t, value) => containsIgnoringCase(t.name, value) || containsIgnoringCase(t.subject, value),
            name: (t, value) => t.name.toLowerCase() === value.trim().toLowerCase(),
            uuid: (t, value) => t.uuid === value.trim().toLowerCase()
          }
        })
        return { total: page.total, items: page.items.map((template) => ({ template, statistics: statistics(template.id) })) }
      }),
    statistics: (id) => Effect.sync(() => statistics(id))
  })
}
