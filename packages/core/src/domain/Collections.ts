import { type CollectionQuery, collectionSpec } from "./CollectionQuery.js"

/** Templates: sort by name (default) or updated_at; fuzzy search on name. */
export const TemplateCollection = collectionSpec({
  sorts: ["name", "updated_at"],
  defaultSort: "name",
  filters: ["search"],
  includes: []
})
/** A query over templates. */
export type TemplateQuery = CollectionQuery<"name" | "updated_at", "search">

/** Email lists: sort by name (default), created_at or active_subscribers_count; search or exact name. */
export const EmailListCollection = collectionSpec({
  sorts: ["name", "created_at", "active_subscribers_count"],
  defaultSort: "name",
  filters: ["search", "name"],
  includes: []
})
/** A query over email lists. */
export type EmailListQuery = CollectionQuery<"name" | "created_at" | "active_subscribers_count", "search" | "name">

/** Suppressions: newest first by default; fuzzy search on email, exact reason. */
export const SuppressionCollection = collectionSpec({
  sorts: ["created_at"],
  defaultSort: "-created_at",
  filters: ["search", "reason"],
  includes: []
})
/** A query over suppressions. */
export type SuppressionQuery = CollectionQuery<"created_at", "search" | "reason">
