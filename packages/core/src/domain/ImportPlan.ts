import { decideImport, type ExistingSubscriber, type ImportedFields, type ImportRules } from "./ImportDecision.js"
import type { ImportRow, RejectedRow } from "./ImportRow.js"
import type { SubscriberStatus } from "./SubscriberStatus.js"

/** What a batch of import rows does to a list, decided row by row in CSV order. */
export interface ImportPlan {
  readonly inserts: Array<{ readonly row: ImportRow; readonly fields: ImportedFields }>
  readonly updates: Array<{ readonly row: ImportRow; readonly id: number; readonly fields: ImportedFields }>
  /** Existing subscribers whose row was refused: marked as seen by the import, so a later row is a duplicate. */
  readonly refusedIds: Array<number>
  readonly refused: Array<RejectedRow>
  /** Change of each status' count on the list. */
  readonly statusDelta: Map<SubscriberStatus, number>
}

/**
 * Decides every row of a batch against the subscribers already on the list (`known`, by address), marking each address
 * it decides as seen by the import, so a second row for it in the same import is a skipped duplicate (a marked address
 * is read for nothing else, so every one takes the same marker). A plain loop: it runs once per imported row, and
 * inside an Effect generator it was several times slower.
 */
export const planImportBatch = (
  rows: ReadonlyArray<ImportRow>,
  known: Map<string, ExistingSubscriber>,
  rules: ImportRules,
  at: Date
): ImportPlan => {
  const plan: ImportPlan = { inserts: [], updates: [], refusedIds: [], refused: [], statusDelta: new Map() }
  const seen: ExistingSubscriber = {
    id: 0,
    firstName: null,
    lastName: null,
    extraAttributes: {},
    subscribedAt: null,
    unsubscribedAt: null,
    lastImportId: rules.importId
  }
  const shift = (status: SubscriberStatus, by: number) => plan.statusDelta.set(status, (plan.statusDelta.get(status) ?? 0) + by)
  for (const row of rows) {
    const existing = known.get(row.email)
    const decision = decideImport(existing, row, rules, at)
    switch (decision._tag) {
      case "Duplicate":
        continue
      case "Reject":
        plan.refused.push({ line: row.line, email: row.email, reason: decision.reason })
        if (existing !== undefined) {
          plan.refusedIds.push(existing.id)
          known.set(row.email, seen)
        }
        continue
      case "Insert":
        plan.inserts.push({ row, fields: decision.fields })
        known.set(row.email, seen)
        break
      case "Update":
        shift(decision.from, -1)
        plan.updates.push({ row, id: decision.id, fields: decision.fields })
        known.set(row.email, seen)
    }
    shift(decision.fields.status, 1)
  }
  return plan
}
