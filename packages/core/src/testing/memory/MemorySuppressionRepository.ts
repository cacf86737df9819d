import { Effect, Option } from "effect"
import type { SuppressionId } from "../../domain/Ids.js"
import { Suppression } from "../../domain/Suppression.js"
import { SuppressionRepository } from "../../ports/SuppressionRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** SuppressionRepository over the in-memory state. */
export const makeMemorySuppressionRepository = (state: MemoryState) => {
  const rows = () => state.tables.suppressions
  const byEmail = (email: string) => Option.fromNullable([...rows().values()].find((s) => s.email === email))
  return SuppressionRepository.of({
    insertOrGet: (suppression) =>
      Effect.sync(() => {
        const existing = byEmail(suppression.email)
        if (Option.isSome(existing)) return { suppression: existing.value, created: false }
        const row = new Suppression({ ...suppression, id: state.nextId("suppressions") as SuppressionId })
        rows().set(row.id, row)
        return { suppression: row, created: true }
      }),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((s) => s.uuid === uuid))),
    findByEmail: (email) => Effect.sync(() => byEmail(email)),
    suppressedAmong: (emails) =>
      Effect.sync(() => {
        const wanted = new Set(emails)
        return new Set([...rows().values()].map((row) => row.email).filter((email) => wanted.has(email)))
      }),
    delete: (id) => Effect.sync(() => rows().delete(id)),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (s) => s.id,
          sorts: { created_at: (s) => s.createdAt },
          filters: {
            search: (s, value) => containsIgnoringCase(s.email, value),
            reason: (s, value) => s.reason === value
          }
        })
      )
  })
}
