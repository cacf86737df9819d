import { importStatusEvents } from "../../events/importEvents.js"
import { now } from "../../usecases/now.js"
import { recordMemoryEvents } from "./memoryEvents.js"
import { Effect, Option } from "effect"
import type { SubscriberImportId } from "../../domain/Ids.js"
import { ImportRowError, SubscriberImport } from "../../domain/SubscriberImport.js"
import { SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** SubscriberImportRepository over the in-memory state. */
export const makeMemorySubscriberImportRepository = (state: MemoryState) => {
  const rows = () => state.tables.subscriberImports
  const parts = (id: number) => [...state.tables.importParts.entries()].filter(([, part]) => part.importId === id)
  const dropParts = (id: number) => {
    for (const [key] of parts(id)) state.tables.importParts.delete(key)
  }
  const addPart = (id: number, text: string) => {
    const seq = Math.max(0, ...parts(id).map(([, part]) => part.seq)) + 1
    state.tables.importParts.set(state.nextId("importParts"), { importId: id, seq, text })
  }
  const change = (id: number, when: (row: SubscriberImport) => boolean, changes: Partial<SubscriberImport>) => {
    const row = rows().get(id)
    if (row === undefined || !when(row)) return Option.none()
    const changed = new SubscriberImport({ ...row, ...changes })
    rows().set(id, changed)
    return Option.some(changed)
  }
  const isDraft = (row: SubscriberImport) => row.status === "draft"

  return SubscriberImportRepository.of({
    insert: (subscriberImport, csv) =>
      Effect.sync(() => {
        const row = new SubscriberImport({ ...subscriberImport, id: state.nextId("subscriberImports") as SubscriberImportId, csvLength: csv.length })
        rows().set(row.id, row)
        addPart(row.id, csv)
        return row
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByUuid: (uuid) => Effect.sync(() => Option.fromNullable([...rows().values()].find((row) => row.uuid === uuid))),
    replace: (id, settings, csv) =>
      Effect.sync(() => {
        const changed = change(id, isDraft, { ...settings, csvLength: csv.length })
        if (Option.isSome(changed)) {
          dropParts(id)
          addPart(id, csv)
        }
        return changed
      }),
    append: (id, csv, at) =>
      Effect.sync(() => {
        const row = rows().get(id)
        const changed = change(id, isDraft, { csvLength: (row?.csvLength ?? 0) + csv.length, updatedAt: at })
        if (Option.isSome(changed)) addPart(id, csv)
        return changed
      }),
    csvParts: (id, afterSeq, limit) =>
      Effect.sync(() =>
        parts(id).map(([, { seq, text }]) => ({ seq, text })).filter((part) => part.seq > afterSeq)
          .sort((a, b) => a.seq - b.seq).slice(0, limit)
      ),
    dropCsv: (id) =>
      Effect.sync(() => {
        dropParts(id)
        change(id, () => true, { csvLength: 0 })
      }),
    delete: (id) =>
      Effect.sync(() => {
        dropParts(id)
        for (const [key, error] of state.tables.importErrors) if (error.importId === id) state.tables.importErrors.delete(key)
        return rows().delete(id)
      }),
    list: (query) =>
      Effect.sync(() =>
        listPage(rows().values(), query, {
          id: (row) => row.id,
          sorts: { created_at: (row) => row.createdAt, updated_at: (row) => row.updatedAt },
          filters: {
            status: (row, value) => value.split(",").map((s) => s.trim()).includes(row.status),
            email_list_id: (row, value) => String(row.emailListId) === value.trim()
          }
        })
      ),
    transition: (id, from, to, changes) =>
      Effect.flatMap(now, (at) => Effect.sync(() => {
        const moved = change(id, (row) => from.includes(row.status), { ...changes, status: to })
        if (Option.isSome(moved)) recordMemoryEvents(state, importStatusEvents(moved.value, to, changes.updatedAt ?? at))
        return moved
      })),
    claim: (now, leaseUntil) =>
      Effect.sync(() => {
        const free = [...rows().values()]
          .filter((row) => (row.status === "pending" || row.status === "importing") && (row.lockedUntil === null || row.lockedUntil < now))
          .sort((a, b) => a.id - b.id)[0]
        return free === undefined ? Option.none() : change(free.id, () => true, { lockedUntil: leaseUntil })
      }),
    errors: (id, query) =>
      Effect.sync(() => {
        const page = listPage(
          [...state.tables.importErrors.entries()].filter(([, error]) => error.importId === id),
          query,
          { id: ([key]) => key, sorts: { line: ([, error]) => error.line }, filters: {} }
        )
        return { total: page.total, items: page.items.map(([, { line, email, reason }]) => new ImportRowError({ line, email, reason })) }
      })
  })
}
