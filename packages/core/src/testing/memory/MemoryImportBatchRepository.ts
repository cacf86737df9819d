import { Effect, Option } from "effect"
import { EmailList } from "../../domain/EmailList.js"
import type { EmailListId, SubscriberUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { decideImport, type ImportedFields } from "../../domain/ImportDecision.js"
import { SubscriberImport } from "../../domain/SubscriberImport.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { ImportBatchRepository } from "../../ports/ImportBatchRepository.js"
import type { MemoryState } from "./MemoryState.js"
import { makeMemoryTagRepository } from "./MemoryTagRepository.js"

type Row = MemoryState["tables"]["subscribers"] extends Map<number, infer R> ? R : never

/** ImportBatchRepository over the in-memory state, with the same rules and counters as the SQL stores. */
export const makeMemoryImportBatchRepository = (state: MemoryState) => {
  const tags = makeMemoryTagRepository(state)
  const subscribers = () => state.tables.subscribers
  const adjustActive = (emailListId: number, delta: number) => {
    const list = state.tables.emailLists.get(emailListId)
    if (list !== undefined && delta !== 0) {
      state.tables.emailLists.set(emailListId, new EmailList({ ...list, activeSubscribersCount: list.activeSubscribersCount + delta }))
    }
  }
  const active = (fields: Pick<ImportedFields, "status">) => (fields.status === "subscribed" ? 1 : 0)

  return ImportBatchRepository.of({
    write: (batch) =>
      Effect.gen(function*() {
        const current = state.tables.subscriberImports.get(batch.importId)
        if (current === undefined || current.status !== "importing" || current.processedRows !== batch.processedBefore) {
          return Option.none()
        }
        const byEmail = new Map<string, Row>()
        for (const row of subscribers().values()) if (row.emailListId === batch.emailListId) byEmail.set(row.email, row)
        const errors = [...batch.rejected]
        for (const row of batch.rows) {
          const found = byEmail.get(row.email)
          const existing = found === undefined
            ? undefined
            : { ...found, lastImportId: state.tables.importMarks.get(found.id) ?? null }
          const decision = decideImport(existing, row, batch.rules, batch.at)
          if (decision._tag === "Duplicate") continue
          if (decision._tag === "Reject") {
            errors.push({ line: row.line, email: row.email, reason: decision.reason })
            // marked as seen by this import, so a later row for the address is a skipped duplicate, not a second refusal
            state.tables.importMarks.set(found!.id, batch.importId)
            continue
          }
          const { status: _, ...fields } = decision.fields
          const written: Row = decision._tag === "Insert"
            ? { ...fields, id: state.nextId("subscribers"), uuid: newUuid() as SubscriberUuid, emailListId: batch.emailListId as EmailListId, email: row.email, createdAt: batch.at, updatedAt: batch.at }
            : { ...found!, ...fields, updatedAt: batch.at }
          subscribers().set(written.id, written)
          byEmail.set(row.email, written)
          state.tables.importMarks.set(written.id, batch.importId)
          adjustActive(batch.emailListId, active(decision.fields) - (found === undefined ? 0 : subscriberStatus(found) === "subscribed" ? 1 : 0))
          const tagIds = (yield* tags.ensure(batch.emailListId as EmailListId, row.tags, "default", batch.at)).map((tag) => tag.id as number)
          const kept = decision._tag === "Update" && !batch.rules.replaceTags ? [...(state.tables.subscriberTags.get(written.id) ?? [])] : []
          if (tagIds.length > 0 || decision._tag === "Update" && batch.rules.replaceTags) {
            state.tables.subscriberTags.set(written.id, new Set([...kept, ...tagIds]))
          }
        }
        for (const error of errors) state.tables.importErrors.set(state.nextId("importErrors"), { importId: batch.importId, ...error })
        state.tables.subscriberImports.set(batch.importId, new SubscriberImport({
          ...current,
          processedRows: batch.processedAfter,
          importedSubscribersCount: batch.processedAfter,
          errorCount: current.errorCount + errors.length,
          lockedUntil: batch.leaseUntil,
          updatedAt: batch.at
        }))
        return Option.some({ rejected: errors.length })
      }),
    unsubscribeOthers: (importId, emailListId, at) =>
      Effect.sync(() => {
        let count = 0
        for (const row of subscribers().values()) {
          if (row.emailListId !== emailListId || subscriberStatus(row) !== "subscribed" || state.tables.importMarks.get(row.id) === importId) continue
          subscribers().set(row.id, { ...row, unsubscribedAt: at, updatedAt: at })
          count++
        }
        adjustActive(emailListId, -count)
        return count
      })
  })
}
