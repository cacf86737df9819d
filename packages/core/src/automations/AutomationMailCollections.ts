import { type CollectionQuery, collectionSpec } from "../domain/CollectionQuery.js"

/** Automation mails: by name (default) or created_at; search on name and subject, exact name or uuid. */
export const AutomationMailCollection = collectionSpec({
  sorts: ["name", "created_at"],
  defaultSort: "name",
  filters: ["search", "name", "uuid"],
  includes: []
})
/** A query over automation mails. */
export type AutomationMailQuery = CollectionQuery<"name" | "created_at", "search" | "name" | "uuid">
