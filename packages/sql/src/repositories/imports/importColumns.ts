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

/** Writes the values of IMPORTED_COLUMNS into `into` from `at`; the index after them. */
const writeImportedValues = (c: ImportedSubscriberColumns, into: Array<InsertValue>, at: number): number => {
  into[at] = c.firstName
  into[at + 1] = c.lastName
  into[at + 2] = c.extraAttributes
  into[at + 3] = c.searchKey
  into[at + 4] = c.status
  into[at + 5] = c.subscribedAt
  into[at + 6] = c.unsubscribedAt
  into[at + 7] = c.updatedAt
  into[at + 8] = c.lastImportId
  return at + 9
}

/** Writes the values of NEW_SUBSCRIBER_COLUMNS into `into` from `at` (no array per row); the index after them. */
export const writeNewSubscriberValues = (c: NewSubscriberColumns, into: Array<InsertValue>, at: number): number => {
  into[at] = c.uuid
  into[at + 1] = c.emailListId
  into[at + 2] = c.email
  into[at + 3] = c.createdAt
  return writeImportedValues(c, into, at + 4)
}

/** The values of IMPORTED_COLUMNS. */
export const importedValues = (c: ImportedSubscriberColumns): Array<InsertValue> => {
  const values = new Array<InsertValue>(IMPORTED_COLUMNS.length)
  writeImportedValues(c, values, 0)
  return values
}

/** The values of NEW_SUBSCRIBER_COLUMNS. */
export const newSubscriberValues = (c: NewSubscriberColumns): Array<InsertValue> => {
  const values = new Array<InsertValue>(NEW_SUBSCRIBER_COLUMNS.length)
  writeNewSubscriberValues(c, values, 0)
  return values
}
