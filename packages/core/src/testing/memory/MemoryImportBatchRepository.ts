import { Effect, Option } from "effect"
import { EmailList } from "../../domain/EmailList.js"
import type { EmailListId, SubscriberUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { ExistingSubscriber } from "../../domain/ImportDecision.js"
import { planImportBatch } from "../../domain/ImportPlan.js"
import { SubscriberImport } from "../../domain/SubscriberImport.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { ImportBatchRepository } from "../../ports/ImportBatchRepository.js"
import { importSubscriberEvents, importTagEvents, type TagLink, unsubscribedEvents } from "../../events/importEvents.js"
import { recordMemoryEvents } from "./memoryEvents.js"
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

  return ImportBatchRepository.of({
    write: (batch) =>
      Effect.gen(function*() {
        const current = state.tables.subscriberImports.get(batch.importId)
        if (current === undefined || current.status !== "importing" || current.processedRows !== batch.processedBefore) {
          return Option.none()
        }
        const known = new Map<string, ExistingSubscriber>()
        const before = new Map<number, ReturnType<typeof subscriberStatus>>()
        for (const row of subscribers().values()) {
          if (row.emailListId === batch.emailListId) {
            known.set(row.email, { ...row, lastImportId: state.tables.importMarks.get(row.id) ?? null })
            before.set(row.id, subscriberStatus(row))
          }
        }
        const inserted: Array<{ id: number; status: ReturnType<typeof subscriberStatus> }> = []
        const removedLinks: Array<TagLink> = []
        const addedLinks: Array<TagLink> = []
        const plan = planImportBatch(batch.rows, known, batch.rules, batch.at)
        const errors = [...batch.rejected, ...plan.refused]
        for (const id of plan.refusedIds) state.tables.importMarks.set(id, batch.importId)
        // new subscribers first, then the changed ones, as the SQL stores write them
        const writes = [
          ...plan.inserts.map(({ fields, row }) => ({ fields, row, found: undefined })),
          ...plan.updates.map(({ fields, id, row }) => ({ fields, row, found: subscribers().get(id)! }))
        ]
        for (const { fields: { status: _, ...fields }, found, row } of writes) {
          const written: Row = found === undefined
            ? { ...fields, id: state.nextId("subscribers"), uuid: newUuid() as SubscriberUuid, emailListId: batch.emailListId as EmailListId, email: row.email, createdAt: batch.at, updatedAt: batch.at }
            : { ...found, ...fields, updatedAt: batch.at }
          subscribers().set(written.id, written)
          if (found === undefined) inserted.push({ id: written.id, status: subscriberStatus(written) })
          state.tables.importMarks.set(written.id, batch.importId)
          const tagIds = (yield* tags.ensure(batch.emailListId as EmailListId, row.tags, "default", batch.at)).map((tag) => tag.id as number)
          const had = state.tables.subscriberTags.get(written.id) ?? new Set<number>()
          const kept = found !== undefined && !batch.rules.replaceTags ? [...had] : []
          if (tagIds.length > 0 || found !== undefined && batch.rules.replaceTags) {
            const next = new Set([...kept, ...tagIds])
            state.tables.subscriberTags.set(written.id, next)
            for (const tagId of had) if (!next.has(tagId)) removedLinks.push({ subscriberId: written.id, tagId })
            for (const tagId of next) if (!had.has(tagId)) addedLinks.push({ subscriberId: written.id, tagId })
          }
        }
        const updated = plan.updates.map(({ fields, id }) => ({ id, from: before.get(id)!, to: fields.status }))
        const names = new Map([...state.tables.tags.values()].map((tag) => [tag.id, tag.name]))
        recordMemoryEvents(state, [
          ...importSubscriberEvents(batch.emailListId, inserted, updated, batch.at),
          ...importTagEvents(batch.emailListId, removedLinks, addedLinks, names, batch.at)
        ])
        adjustActive(batch.emailListId, plan.statusDelta.get("subscribed") ?? 0)
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
        const unsubscribed: Array<number> = []
        for (const row of subscribers().values()) {
          if (row.emailListId !== emailListId || subscriberStatus(row) !== "subscribed" || state.tables.importMarks.get(row.id) === importId) continue
          subscribers().set(row.id, { ...row, unsubscribedAt: at, updatedAt: at })
          unsubscribed.push(row.id)
        }
        adjustActive(emailListId, -unsubscribed.length)
        recordMemoryEvents(state, unsubscribedEvents(emailListId, unsubscribed, at))
        return unsubscribed.length
      })
  })
}
