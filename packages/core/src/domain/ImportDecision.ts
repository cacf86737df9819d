import type { ImportRow } from "./ImportRow.js"
import { subscriberStatus, type SubscriberStatus } from "./SubscriberStatus.js"

/** What an import needs to know of a subscriber already on the list. */
export interface ExistingSubscriber {
  readonly id: number
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: Readonly<Record<string, unknown>>
  readonly subscribedAt: Date | null
  readonly unsubscribedAt: Date | null
  /** The import that last wrote this subscriber (a second row for the address in that import is a duplicate). */
  readonly lastImportId: number | null
}

/** The import's own choices that shape every row. */
export interface ImportRules {
  readonly importId: number
  readonly subscribeUnsubscribed: boolean
  readonly replaceTags: boolean
}

/** The subscriber fields an import row writes. */
export interface ImportedFields {
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: Readonly<Record<string, unknown>>
  readonly subscribedAt: Date | null
  readonly unsubscribedAt: Date | null
  readonly status: SubscriberStatus
}

/** What one row does: add a subscriber, change one, nothing (a repeated address), or a refusal. */
export type ImportDecision =
  | { readonly _tag: "Insert"; readonly row: ImportRow; readonly fields: ImportedFields }
  | { readonly _tag: "Update"; readonly row: ImportRow; readonly id: number; readonly from: SubscriberStatus; readonly fields: ImportedFields }
  | { readonly _tag: "Duplicate"; readonly row: ImportRow }
  | { readonly _tag: "Reject"; readonly row: ImportRow; readonly reason: string }

/** Refusal for an address that opted out, when the import may not subscribe it again. */
export const UNSUBSCRIBED_REASON = "The address unsubscribed from this list (set subscribe_unsubscribed to subscribe it again)."

/**
 * The rule for one valid row. Rows subscribe without confirmation: a new address is subscribed (at the row's
 * `subscribed_at`, else now), an unconfirmed one becomes subscribed, a subscribed one stays so, and an unsubscribed
 * one is refused unless `subscribeUnsubscribed`. A row with `unsubscribed_at` stores the address as unsubscribed.
 * Names are replaced by non-empty cells, attributes merged.
 */
export const decideImport = (
  existing: ExistingSubscriber | undefined,
  row: ImportRow,
  rules: ImportRules,
  at: Date
): ImportDecision => {
  if (existing === undefined) {
    const stamps = { subscribedAt: row.subscribedAt ?? at, unsubscribedAt: row.unsubscribedAt }
    return {
      _tag: "Insert",
      row,
      fields: { firstName: row.firstName, lastName: row.lastName, extraAttributes: row.attributes, ...stamps, status: subscriberStatus(stamps) }
    }
  }
  if (existing.lastImportId === rules.importId) return { _tag: "Duplicate", row }
  const from = subscriberStatus(existing)
  if (from === "unsubscribed" && row.unsubscribedAt === null && !rules.subscribeUnsubscribed) {
    return { _tag: "Reject", row, reason: UNSUBSCRIBED_REASON }
  }
  const stamps = from === "subscribed"
    ? { subscribedAt: existing.subscribedAt, unsubscribedAt: row.unsubscribedAt }
    : from === "unsubscribed" && row.unsubscribedAt !== null
    ? { subscribedAt: existing.subscribedAt, unsubscribedAt: existing.unsubscribedAt }
    : { subscribedAt: row.subscribedAt ?? at, unsubscribedAt: row.unsubscribedAt }
  return {
    _tag: "Update",
    row,
    id: existing.id,
    from,
    fields: {
      firstName: row.firstName ?? existing.firstName,
      lastName: row.lastName ?? existing.lastName,
      extraAttributes: { ...existing.extraAttributes, ...row.attributes },
      ...stamps,
      status: subscriberStatus(stamps)
    }
  }
}
