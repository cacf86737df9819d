import { type CollectionQuery, collectionSpec } from "../domain/CollectionQuery.js"

/** Transactional templates: newest first by default; search on name and subject, exact name or uuid. */
export const TransactionalTemplateCollection = collectionSpec({
  sorts: ["name", "created_at", "subject"],
  defaultSort: "-created_at",
  filters: ["search", "name", "uuid"],
  includes: []
})
/** A query over transactional templates. */
export type TransactionalTemplateQuery = CollectionQuery<"name" | "created_at" | "subject", "search" | "name" | "uuid">

/** The transactional mail log: newest first by default; search on subject and addresses, exact message id or name. */
export const TransactionalMailCollection = collectionSpec({
  sorts: ["created_at", "subject"],
  defaultSort: "-created_at",
  filters: ["search", "transport_message_id", "mail_name"],
  includes: []
})
/** A query over the transactional mail log. */
export type TransactionalMailQuery = CollectionQuery<"created_at" | "subject", "search" | "transport_message_id" | "mail_name">
