import { type CollectionQuery, collectionSpec } from "../domain/CollectionQuery.js"

/** Automations: by name by default; search on name, exact status. */
export const AutomationCollection = collectionSpec({
  sorts: ["name", "created_at"],
  defaultSort: "name",
  filters: ["search", "status"],
  includes: []
})
/** A query over automations. */
export type AutomationQuery = CollectionQuery<"name" | "created_at", "search" | "status">

/** Where subscribers are in an automation: oldest entry first by default; filter by state or action. */
export const AutomationRunCollection = collectionSpec({
  sorts: ["entered_at"],
  defaultSort: "entered_at",
  filters: ["state", "action_uuid", "subscriber_uuid"],
  includes: []
})
/** A query over the positions in an automation. */
export type AutomationRunQuery = CollectionQuery<"entered_at", "state" | "action_uuid" | "subscriber_uuid">
