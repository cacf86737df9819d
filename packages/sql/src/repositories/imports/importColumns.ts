import type { InsertValue } from "../../valuesInsert.js"
import type { ImportedSubscriberColumns, NewSubscriberColumns } from "./ImportBulkWrites.js"

/** The columns an import writes for every subscriber it touches, in the order of `importedValues`. */
export const IMPORTED_COLUMNS = [
  "first_name",
  "last_name",
  "extra_attributes",
  "search_key",
  "status",
  "subscribed_at",
  "unsubscribed_at",
  "updated_at",
  "last_import_id"
] as const

/** The columns of a subscriber an import creates, in the order of `newSubscriberValues`. */
export const NEW_SUBSCRIBER_COLUMNS = ["uuid", "email_list_id", "email", "created_at", ...IMPORTED_COLUMNS] as const

/** The values of IMPORTED_COLUMNS. */
export const importedValues = (c: ImportedSubscriberColumns): Array<InsertValue> => [
  c.firstName,
  c.lastName,
  c.extraAttributes,
  c.searchKey,
  c.status,
  c.subscribedAt,
  c.unsubscribedAt,
  c.updatedAt,
  c.lastImportId
]

/** The values of NEW_SUBSCRIBER_COLUMNS. */
export const newSubscriberValues = (c: NewSubscriberColumns): Array<InsertValue> => [
  c.uuid,
  c.emailListId,
  c.email,
  c.createdAt,
  ...importedValues(c)
]
